package controller

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/notify"
)

// mailbox records the MailProg runs of a harness's notifier.
type mailbox struct {
	mu    sync.Mutex
	mails []mail
}

type mail struct {
	args []string
	env  []string
	body string
}

func (m *mailbox) run(_ context.Context, _ string, args, env []string, body string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.mails = append(m.mails, mail{args, env, body})
	return nil
}

// subjects closes the notifier (delivering what is queued) and returns
// the mail subjects sent.
func (m *mailbox) subjects(h *harness) []string {
	h.c.live.notifier.Close()
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, ml := range m.mails {
		out = append(out, ml.args[1])
	}
	return out
}

// withMailbox makes h's notifier mail into a mailbox.
func withMailbox(h *harness) *mailbox {
	m := &mailbox{}
	h.c.live.notifier.Close()
	h.c.live.notifier = notify.New(notify.Config{MailProg: "/bin/mail", Run: m.run})
	return m
}

// TestPreemptionRecordsCheckpointAndNotifies: a requeueable victim that
// exits inside its grace window is requeued with the same id, its
// checkpoint recorded as saved, a statistics row written, and its owner
// told why and when it should run again once a cycle has planned it.
func TestPreemptionRecordsCheckpointAndNotifies(t *testing.T) {
	h := newHarness(t)
	box := withMailbox(h)
	n := h.node("n01")
	n.AutoEnd = false
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) {
		r.Name, r.MailType, r.Signal = "train", job.MailRequeue|job.MailBegin, &job.Signal{Number: 10}
	}))
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	h.clock.Advance(10 * time.Minute)
	h.eng.Preempt(id, 99, true, 90*time.Second)
	h.cycle()
	h.clock.Advance(20 * time.Second)
	if err := n.End(id, job.ExitCode{}, func(e *api.JobEvent) { e.Terminated, e.ExitedInGrace = api.TerminatePreempt, true }); err != nil {
		t.Fatal(err)
	}
	j := h.waitState(fmt.Sprint(id), job.Pending)
	if j.Restarts != 1 || j.Preemptions != 1 || j.Checkpoint != "saved" || j.PreemptedBy != 99 || j.PreemptReason != "urgent" {
		t.Errorf("requeued victim: restarts %d preemptions %d checkpoint %q by %d (%s)", j.Restarts, j.Preemptions, j.Checkpoint, j.PreemptedBy, j.PreemptReason)
	}
	if j.LostRunTime < 600 {
		t.Errorf("lost run time %d s, want the 10 min it ran", j.LostRunTime)
	}
	rows, err := h.c.store.Preemptions(0, 1<<40)
	if err != nil || len(rows) != 1 || !rows[0].Requeued || !rows[0].Checkpointed || rows[0].LostSeconds < 600 || rows[0].Reason != "urgent" {
		t.Errorf("statistics rows %+v (%v)", rows, err)
	}
	h.cycle() // restarts it: the notice goes out with the restart time
	subjects := box.subjects(h)
	want := []string{
		fmt.Sprintf("Slurm Job_id=%d Name=train Began, Queued time 00:00:00", id),
		fmt.Sprintf("Slurm Job_id=%d Name=train Began, Queued time 00:00:00", id),
		fmt.Sprintf("Slurm Job_id=%d Name=train Preempted, Run time 00:10:20, PENDING, checkpoint saved", id),
	}
	if fmt.Sprint(subjects) != fmt.Sprint(want) {
		t.Fatalf("mail subjects\n got %q\nwant %q", subjects, want)
	}
	body := box.mails[2].body
	for _, part := range []string{"urgent job 99", "Checkpoint: saved", "90 s grace window after SIGUSR1", "expected to start again"} {
		if !strings.Contains(body, part) {
			t.Errorf("notice lacks %q:\n%s", part, body)
		}
	}
}

// TestPreemptionOfNonRequeueableJob: the victim ends PREEMPTED with a
// reason naming the beneficiary, and its checkpoint is recorded missed
// when it had to be killed.
func TestPreemptionOfNonRequeueableJob(t *testing.T) {
	no := false
	h, n, id := runningOnQuietNode(t, func(r *job.Request) { r.Requeue = &no })
	h.eng.Preempt(id, 42, false, 30*time.Second)
	h.cycle()
	n.End(id, job.ExitCode{Signal: 9}, func(e *api.JobEvent) { e.Terminated = api.TerminatePreempt })
	j := h.waitState(fmt.Sprint(id), job.Preempted)
	if j.StateReason != "Preempted by job 42 (urgent), not requeueable" || j.Checkpoint != "missed" {
		t.Errorf("reason %q checkpoint %q", j.StateReason, j.Checkpoint)
	}
}

// TestTimeLimitWarnings: TIME_LIMIT_50 and TIME_LIMIT_80 mails go out
// once each as the run time crosses them; BEGIN and END as asked.
func TestTimeLimitWarnings(t *testing.T) {
	h := newHarness(t)
	box := withMailbox(h)
	n := h.node("n01")
	limit := time.Minute // the clock stays within SlurmdTimeout of the node's registration
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) {
		r.Name, r.TimeLimit = "w", &limit
		r.MailType = job.MailTimeLimit50 | job.MailTimeLimit80 | job.MailEnd
	}))
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	for i := 0; i < 4; i++ {
		h.tick(10 * time.Second) // 40 s: past 50% once
	}
	h.tick(8 * time.Second) // 48 s: past 80%
	h.tick(time.Second)
	n.End(id, job.ExitCode{})
	h.waitState(fmt.Sprint(id), job.Completed)
	want := []string{
		fmt.Sprintf("Slurm Job_id=%d Name=w Reached 50%% of time limit Elapsed time 00:00:30", id),
		fmt.Sprintf("Slurm Job_id=%d Name=w Reached 80%% of time limit Elapsed time 00:00:48", id),
		fmt.Sprintf("Slurm Job_id=%d Name=w Ended, Run time 00:00:49, COMPLETED, ExitCode 0", id),
	}
	got := box.subjects(h)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("subjects\n got %q\nwant %q", got, want)
	}
}
