package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/loamhpc/loam/pkg/auth"
)

// Config says where events go.
type Config struct {
	// MailProg is run as Slurm runs it: MailProg -s "<subject>" <user>;
	// empty: no mail.
	MailProg string
	// Webhook is the URL every event is POSTed to as JSON; empty: none.
	Webhook string
	// Signer signs webhook posts with the cluster key; nil: unsigned.
	Signer *auth.Signer
	// Timeout bounds one MailProg run or one post (10 s when 0).
	Timeout time.Duration
	// Retries is how often a failed post is retried (5 when 0; -1: none),
	// Backoff the first wait (1 s when 0), doubling each time.
	Retries int
	Backoff time.Duration
	// Queue bounds the events waiting per destination (4096 when 0).
	Queue int
	// Client posts to the webhook (a default client when nil).
	Client *http.Client
	// Run runs MailProg (exec.CommandContext when nil).
	Run func(ctx context.Context, prog string, args, env []string, stdin string) error
	Log *logrus.Entry
}

// Stats count what happened to events.
type Stats struct {
	Mailed, Posted, Dropped, Failed uint64
}

// Notifier delivers events in the background.
type Notifier struct {
	cfg   Config
	mail  chan Event
	hook  chan Event
	wg    sync.WaitGroup
	stop  chan struct{}
	close sync.Once
	st    struct{ mailed, posted, dropped, failed atomic.Uint64 }
}

// New starts the delivery workers for cfg.
func New(cfg Config) *Notifier {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Retries == 0 {
		cfg.Retries = 5
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = time.Second
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 4096
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: cfg.Timeout}
	}
	if cfg.Run == nil {
		cfg.Run = runProg
	}
	if cfg.Log == nil {
		l := logrus.New()
		l.SetLevel(logrus.PanicLevel)
		cfg.Log = logrus.NewEntry(l)
	}
	n := &Notifier{cfg: cfg, mail: make(chan Event, cfg.Queue), hook: make(chan Event, cfg.Queue), stop: make(chan struct{})}
	n.wg.Add(2)
	go n.mailLoop()
	go n.hookLoop()
	return n
}

// Send queues e for mail (when e.Mail and a MailProg and a user are set)
// and for the webhook (when one is set). It never blocks.
func (n *Notifier) Send(e Event) {
	if e.Mail && e.MailUser != "" && n.cfg.MailProg != "" {
		n.offer(n.mail, e)
	}
	if n.cfg.Webhook != "" {
		n.offer(n.hook, e)
	}
}

func (n *Notifier) offer(q chan Event, e Event) {
	select {
	case <-n.stop:
		n.st.dropped.Add(1)
		return
	default:
	}
	select {
	case q <- e:
	default:
		n.st.dropped.Add(1)
	}
}

// Close stops accepting events, delivers what is queued (without waiting
// between retries) and waits for the workers.
func (n *Notifier) Close() {
	n.close.Do(func() { close(n.stop) })
	n.wg.Wait()
}

// next returns the next queued event; after Close it drains the queue
// without blocking and then reports false.
func (n *Notifier) next(q chan Event) (Event, bool) {
	select {
	case e := <-q:
		return e, true
	case <-n.stop:
	}
	select {
	case e := <-q:
		return e, true
	default:
		return Event{}, false
	}
}

// Stats returns the delivery counts so far.
func (n *Notifier) Stats() Stats {
	return Stats{Mailed: n.st.mailed.Load(), Posted: n.st.posted.Load(), Dropped: n.st.dropped.Load(), Failed: n.st.failed.Load()}
}

func (n *Notifier) mailLoop() {
	defer n.wg.Done()
	for e, ok := n.next(n.mail); ok; e, ok = n.next(n.mail) {
		ctx, cancel := context.WithTimeout(context.Background(), n.cfg.Timeout)
		err := n.cfg.Run(ctx, n.cfg.MailProg, []string{"-s", Subject(&e), e.MailUser}, MailEnv(&e), Body(&e))
		cancel()
		if err != nil {
			n.st.failed.Add(1)
			n.cfg.Log.WithError(err).WithField("job_id", e.JobID).Warn("MailProg failed")
			continue
		}
		n.st.mailed.Add(1)
	}
}

func (n *Notifier) hookLoop() {
	defer n.wg.Done()
	for e, ok := n.next(n.hook); ok; e, ok = n.next(n.hook) {
		if err := n.deliver(e); err != nil {
			n.st.failed.Add(1)
			n.cfg.Log.WithError(err).WithField("job_id", e.JobID).Warn("webhook delivery failed; event dropped")
			continue
		}
		n.st.posted.Add(1)
	}
}

// deliver posts e, retrying with exponential backoff until it succeeds,
// the retries are spent, or the notifier is closing.
func (n *Notifier) deliver(e Event) error {
	body, err := json.Marshal(struct {
		Event
		Subject string `json:"subject"`
	}{e, Subject(&e)})
	if err != nil {
		return err
	}
	wait := n.cfg.Backoff
	for attempt := 0; ; attempt++ {
		err = n.post(body)
		if err == nil || attempt >= n.cfg.Retries || n.cfg.Retries < 0 {
			return err
		}
		select {
		case <-n.stop:
			return fmt.Errorf("closing: %w", err)
		case <-time.After(wait):
		}
		wait *= 2
	}
}

func (n *Notifier) post(body []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), n.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.cfg.Webhook, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if n.cfg.Signer != nil {
		if err := n.cfg.Signer.Sign(req, body); err != nil {
			return err
		}
	}
	resp, err := n.cfg.Client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("webhook answered %s", resp.Status)
	}
	return nil
}

// MailEnv is the environment MailProg gets: Slurm's SLURM_* variables
// about the job, plus Loam's LOAM_* for a preemption.
func MailEnv(e *Event) []string {
	env := []string{
		"SLURM_CLUSTER_NAME=" + e.Cluster,
		"SLURM_JOB_ID=" + strconv.FormatUint(uint64(e.JobID), 10),
		"SLURM_JOB_NAME=" + e.Name,
		"SLURM_JOB_USER=" + e.User,
		"SLURM_JOB_ACCOUNT=" + e.Account,
		"SLURM_JOB_PARTITION=" + e.Partition,
		"SLURM_JOB_STATE=" + e.State,
		"SLURM_JOB_MAIL_TYPE=" + verbs[e.Kind],
		"SLURM_JOB_EXIT_CODE_MAX=" + strconv.Itoa(e.ExitStatus),
		"SLURM_JOB_QUEUED_TIME=" + Duration(e.QueuedSecs),
		"SLURM_JOB_RUN_TIME=" + Duration(e.RunSecs),
	}
	if e.ArrayTaskID != nil {
		env = append(env, "SLURM_ARRAY_JOB_ID="+strconv.FormatUint(uint64(e.ArrayJobID), 10),
			"SLURM_ARRAY_TASK_ID="+strconv.Itoa(*e.ArrayTaskID))
	}
	if e.Kind == Preempt {
		env = append(env, "LOAM_PREEMPT_REASON="+e.Reason, "LOAM_CHECKPOINT="+checkpointWord(e.Checkpointed),
			"LOAM_REQUEUED="+strconv.FormatBool(e.Requeued), "LOAM_EXPECTED_RESTART="+strconv.FormatInt(e.ExpectedRestart, 10))
	}
	return env
}

// runProg runs prog with args and env, feeding stdin.
func runProg(ctx context.Context, prog string, args, env []string, stdin string) error {
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Env = append(env, "PATH=/usr/sbin:/usr/bin:/sbin:/bin")
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w: %s", prog, err, bytes.TrimSpace(out))
	}
	return nil
}
