package notify

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/auth"
)

func task(i int) *int { return &i }

// TestSubject: the subjects Slurm's mail has, as users' mail filters and
// smail-style scripts parse them.
func TestSubject(t *testing.T) {
	tests := map[string]struct {
		e    Event
		want string
	}{
		"begin": {Event{Kind: Begin, JobID: 12, Name: "x", QueuedSecs: 1},
			"Slurm Job_id=12 Name=x Began, Queued time 00:00:01"},
		"end": {Event{Kind: End, JobID: 327, Name: "ddt_clone", RunSecs: 301, State: "COMPLETED"},
			"Slurm Job_id=327 Name=ddt_clone Ended, Run time 00:05:01, COMPLETED, ExitCode 0"},
		"fail with an exit code": {Event{Kind: Fail, JobID: 328, Name: "ddt_clone", RunSecs: 301, State: "FAILED", ExitStatus: 127},
			"Slurm Job_id=328 Name=ddt_clone Failed, Run time 00:05:01, FAILED, ExitCode 127"},
		"fail by a signal has no exit code": {Event{Kind: Fail, JobID: 1007, Name: "memorywaster.bash", RunSecs: 61, State: "OUT_OF_MEMORY", ExitSignal: 9},
			"Slurm Job_id=1007 Name=memorywaster.bash Failed, Run time 00:01:01, OUT_OF_MEMORY"},
		"requeue": {Event{Kind: Requeue, JobID: 4242, Name: "n", RunSecs: 12},
			"Slurm Job_id=4242 Name=n Requeued, Run time 00:00:12"},
		"time limit warning": {Event{Kind: TimeLimit80, JobID: 5, Name: "n", RunSecs: 2*86400 + 3600},
			"Slurm Job_id=5 Name=n Reached 80% of time limit Elapsed time 2-01:00:00"},
		"array task": {Event{Kind: Begin, JobID: 15, ArrayJobID: 12, ArrayTaskID: task(3), Name: "a"},
			"Slurm Array Task Job_id=12_3 (15) Name=a Began, Queued time 00:00:00"},
		"preemption": {Event{Kind: Preempt, JobID: 7, Name: "train", RunSecs: 600, State: "PENDING", Checkpointed: true},
			"Slurm Job_id=7 Name=train Preempted, Run time 00:10:00, PENDING, checkpoint saved"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Subject(&tc.e); got != tc.want {
				t.Errorf("subject\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestPreemptBodySaysWhyWhenAndCheckpoint(t *testing.T) {
	e := Event{Kind: Preempt, JobID: 7, Name: "train", User: "alice", Account: "vision", Time: 1000, RunSecs: 600,
		Reason: "urgent", Beneficiary: 9, Checkpointed: true, Requeued: true, Restarts: 1, ExpectedRestart: 4600,
		GraceSecs: 300, Signal: "SIGUSR1"}
	body := Body(&e)
	for _, want := range []string{"urgent job 9", "Checkpoint: saved", "300 s grace window after SIGUSR1", "restart 1", "expected to start again at " + stamp(4600)} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
	if Body(&Event{Kind: End}) != "" {
		t.Error("Slurm's mail has no body; Loam adds one only for preemptions")
	}
}

// TestMailProgCommandLine: MailProg -s "<subject>" <user>, with the job's
// SLURM_* variables; events without Mail go to the webhook only.
func TestMailProgCommandLine(t *testing.T) {
	type run struct {
		prog string
		args []string
		env  []string
	}
	var mu sync.Mutex
	var runs []run
	n := New(Config{MailProg: "/usr/bin/mail", Run: func(_ context.Context, prog string, args, env []string, _ string) error {
		mu.Lock()
		defer mu.Unlock()
		runs = append(runs, run{prog, args, env})
		return nil
	}})
	n.Send(Event{Kind: Begin, JobID: 3, Name: "x", User: "alice", MailUser: "alice@example.org", Mail: true, Cluster: "c"})
	n.Send(Event{Kind: End, JobID: 3, Name: "x", MailUser: "alice", Mail: false})
	n.Close()
	if len(runs) != 1 {
		t.Fatalf("runs %+v, want one", runs)
	}
	want := []string{"-s", "Slurm Job_id=3 Name=x Began, Queued time 00:00:00", "alice@example.org"}
	if diff := cmp.Diff(want, runs[0].args); diff != "" || runs[0].prog != "/usr/bin/mail" {
		t.Errorf("%s args (-want +got):\n%s", runs[0].prog, diff)
	}
	if !strings.Contains(strings.Join(runs[0].env, "\n"), "SLURM_JOB_ID=3\n") {
		t.Errorf("env %v", runs[0].env)
	}
	if st := n.Stats(); st.Mailed != 1 || st.Dropped != 0 {
		t.Errorf("stats %+v", st)
	}
}

// hookServer is an in-memory webhook: it fails the first failures posts,
// then records what it gets, verifying signatures.
type hookServer struct {
	mu       sync.Mutex
	failures int
	posts    []map[string]any
	verifier *auth.Verifier
	bad      int
}

func (h *hookServer) RoundTrip(r *http.Request) (*http.Response, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	if h.failures > 0 {
		h.failures--
		return nil, errors.New("connection refused")
	}
	if h.verifier != nil {
		if _, err := h.verifier.Verify(r, body); err != nil {
			h.bad++
		}
	}
	var m map[string]any
	json.Unmarshal(body, &m)
	h.posts = append(h.posts, m)
	return &http.Response{StatusCode: 200, Status: "200 OK", Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
}

// TestWebhookRetriesWithBackoff: a failing receiver is retried after 1 s,
// 2 s, 4 s; the post is signed with the cluster key.
func TestWebhookRetriesWithBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		key, err := auth.NewKey([]byte(strings.Repeat("k", 32)))
		if err != nil {
			t.Fatal(err)
		}
		h := &hookServer{failures: 3, verifier: auth.NewVerifier(key)}
		n := New(Config{Webhook: "http://hook.example/loam", Signer: auth.NewSigner(key, "loam-ctld"),
			Client: &http.Client{Transport: h}})
		start := time.Now()
		n.Send(Event{Kind: Preempt, JobID: 9, Name: "t", Reason: "urgent"})
		for {
			h.mu.Lock()
			done := len(h.posts) == 1
			h.mu.Unlock()
			if done {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if waited := time.Since(start); waited < 7*time.Second || waited > 8*time.Second {
			t.Errorf("delivered after %s, want 1+2+4 s of backoff", waited)
		}
		n.Close()
		if h.bad != 0 || h.posts[0]["event"] != "PREEMPT" || h.posts[0]["subject"] == "" {
			t.Errorf("posts %v, bad signatures %d", h.posts, h.bad)
		}
		if st := n.Stats(); st.Posted != 1 || st.Failed != 0 {
			t.Errorf("stats %+v", st)
		}
	})
}

// TestSendNeverBlocks: with the queue full, events are dropped and
// counted, and Send returns at once.
func TestSendNeverBlocks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		block := make(chan struct{})
		n := New(Config{MailProg: "mail", Queue: 1, Run: func(context.Context, string, []string, []string, string) error {
			<-block
			return nil
		}})
		for i := 0; i < 10; i++ {
			n.Send(Event{Kind: Begin, JobID: uint32(i), MailUser: "u", Mail: true})
		}
		synctest.Wait()
		if st := n.Stats(); st.Dropped < 8 {
			t.Errorf("stats %+v: want the overflow dropped", st)
		}
		close(block)
		n.Close()
	})
}
