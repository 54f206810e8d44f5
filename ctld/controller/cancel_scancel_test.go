package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// scancel -b without --signal kills the batch shell only, as Slurm's
// KILL_JOB_BATCH does: the job is not marked cancelled, and a pending job
// is cancelled as usual.
func TestCancelBatchOnlyKillsTheBatchShell(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	pend := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	rs := results(t, h, alice, api.PathCancel, api.CancelRequest{
		Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(id), fmt.Sprint(pend)}}, BatchOnly: true})
	if firstErr(rs) != "" {
		t.Fatalf("cancel -b: %+v", rs)
	}
	h.c.inflight.Wait()
	if s := n.Signals(); len(s) != 1 || s[0].Signal != 9 || !s[0].BatchOnly {
		t.Errorf("signals %+v, want SIGKILL to the batch shell", s)
	}
	if terms := n.Terminations(); len(terms) != 0 {
		t.Errorf("terminations %+v, want none", terms)
	}
	if j := h.job(fmt.Sprint(id)); j.JobState != job.Running {
		t.Errorf("running job is %s", j.JobState)
	}
	h.waitState(fmt.Sprint(pend), job.Cancelled)
}

// A signal number no process can receive is accepted and sent nowhere,
// as Slurm's node daemons ignore it; a pending job still answers that it
// cannot be signalled now.
func TestCancelSignalBeyondLinuxSignals(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	pend := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	rs := results(t, h, alice, api.PathCancel, api.CancelRequest{
		Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(id), fmt.Sprint(pend)}}, Signal: 99})
	if rs[0].Error != nil || rs[1].Error == nil || rs[1].Error.Code != api.CodeTransitionState {
		t.Fatalf("signal 99 results %+v", rs)
	}
	h.c.inflight.Wait()
	if s := n.Signals(); len(s) != 0 {
		t.Errorf("signals %+v, want none", s)
	}
}
