package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestPreemption: a victim gets its checkpoint signal with the grace
// window, and is requeued (Restarts+1) or ends PREEMPTED once its node
// reports the end.
func TestPreemption(t *testing.T) {
	tests := map[string]struct {
		requeue   bool
		signal    *job.Signal
		wantState job.State
		wantSig   int
	}{
		"requeue with the job's own signal":   {true, &job.Signal{Number: 10, Seconds: 60}, job.Pending, 10},
		"cancel mode, the partition's signal": {false, nil, job.Preempted, 10},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			n := h.node("n01")
			id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Signal = tc.signal }))
			h.cycle()
			n.Launch(t, id, 5*time.Second)
			h.eng.Preempt(id, 99, tc.requeue, 90*time.Second)
			h.cycle()
			j := h.waitState(fmt.Sprint(id), tc.wantState)
			if tc.requeue && j.Restarts != 1 {
				t.Errorf("restarts %d", j.Restarts)
			}
			terms := n.Terminations()
			if len(terms) != 1 || terms[0].Reason != api.TerminatePreempt || terms[0].Grace != 90 || terms[0].Signal != tc.wantSig {
				t.Errorf("terminations %+v", terms)
			}
			// The state shows before the end's commit: wait for the log.
			clustertest.Eventually(t, 10*time.Second, "the preemption in the job's log", func() error {
				ev, err := h.c.store.JobEvents(id)
				if err != nil || len(ev) < 2 || ev[0].Kind != "preempt" || ev[1].Kind != "preempt_end" {
					return fmt.Errorf("job history %+v (%v)", ev, err)
				}
				return nil
			})
		})
	}
}

// TestStoppedJobBackstop: when a node daemon never reports the end of a
// job it was told to stop, the controller ends it after the grace window,
// KillWait and a minute.
func TestStoppedJobBackstop(t *testing.T) {
	h, _, id := runningOnQuietNode(t)
	results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(id)}}})
	h.c.inflight.Wait()
	if j := h.job(fmt.Sprint(id)); j.JobState != job.Completing {
		t.Fatalf("cancelled running job shows %s, want COMPLETING", j.JobState)
	}
	h.tick(30 * time.Second)
	if j := h.job(fmt.Sprint(id)); j.JobState != job.Completing {
		t.Fatalf("ended too early: %s", j.JobState)
	}
	h.tick(2 * time.Minute)
	if j := h.job(fmt.Sprint(id)); j.JobState != job.Cancelled {
		t.Errorf("after the backstop: %s", j.JobState)
	}
}

// TestStopResentOnRegistration: a job the controller is stopping that its
// node still reports running when it registers (the order was lost, or
// the controller restarted before sending it) is told to stop again.
func TestStopResentOnRegistration(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	n.IgnoreTerminate = true
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(id)}}})
	h.c.inflight.Wait()
	if got := len(n.Terminations()); got != 1 {
		t.Fatalf("%d terminations after the cancel, want 1", got)
	}
	n.Register()
	h.c.inflight.Wait()
	terms := n.Terminations()
	if len(terms) != 2 || terms[1].JobID != id || terms[1].Reason != api.TerminateCancel {
		t.Fatalf("terminations after registering again: %+v", terms)
	}
	if j := h.job(fmt.Sprint(id)); j.JobState != job.Completing {
		t.Errorf("job shows %s, want COMPLETING until the node reports the end", j.JobState)
	}
}

func TestStopReason(t *testing.T) {
	cases := map[string]struct {
		end     job.State
		preempt int64
		want    api.TerminateReason
	}{
		"requeued by its preemption": {job.Requeued, 100, api.TerminatePreempt},
		"requeued by scontrol":       {job.Requeued, 0, api.TerminateRequeue},
		"preempted, not requeued":    {job.Preempted, 100, api.TerminatePreempt},
		"past its time limit":        {job.Timeout, 0, api.TerminateTimeout},
		"past its deadline":          {job.Deadline, 0, api.TerminateDeadline},
		"cancelled":                  {job.Cancelled, 0, api.TerminateCancel},
	}
	for name, tc := range cases {
		r := &jobRecord{St: jobStatus{EndState: tc.end, Preempt: tc.preempt}}
		if got := stopReason(r); got != tc.want {
			t.Errorf("%s: stopReason = %s, want %s", name, got, tc.want)
		}
	}
}
