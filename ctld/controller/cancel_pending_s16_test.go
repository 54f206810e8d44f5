package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestS16CancelledPendingTimes: a job cancelled while pending keeps the
// eligible and accrue times it had, as the peer shows them (squeue --json
// and scontrol): Unknown for a held job or one waiting on a dependency,
// its begin time for a --begin job; the accounting peer's record of a
// held one has no eligible time either.
func TestS16CancelledPendingTimes(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	begin := h.clock.Now().Add(time.Hour).Truncate(time.Second)
	ids := map[string]uint32{
		"held":  h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true })),
		"begin": h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Begin = &begin })),
	}
	ids["dependency"] = h.mustSubmit(alice, simpleJob(func(r *job.Request) {
		r.Dependency = fmt.Sprintf("afterok:%d", ids["begin"])
	}))
	type times struct{ Eligible, Accrue int64 }
	got, want := map[string]times{}, map[string]times{
		"held": {}, "dependency": {}, "begin": {begin.Unix(), begin.Unix()}}
	for name, id := range ids {
		rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(id)}}})
		if e := firstErr(rs); e != "" {
			t.Fatalf("cancel %s: %s", name, e)
		}
		j := h.waitState(fmt.Sprint(id), job.Cancelled)
		got[name] = times{j.EligibleTime, j.AccrueTime}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("times after cancel (-want +got):\n%s", diff)
	}
	h.c.mu.RLock()
	r := h.c.jobs[ids["held"]]
	a := h.c.acctJob(r, 0)
	h.c.mu.RUnlock()
	if a.EligibleTime != 0 {
		t.Errorf("accounting eligible %d, want none (Unknown on the accounting peer)", a.EligibleTime)
	}
}

// TestS16EndedBeforeRunTasks: as on the peer, a job that ended before it
// ran has no task count when it was submitted without -n (scontrol
// NumTasks=N/A, squeue --json "tasks": null), and keeps -n's.
func TestS16EndedBeforeRunTasks(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	got := map[string]int{}
	for name, n := range map[string]int{"without -n": 0, "-n2": 2} {
		id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold, r.NTasks = true, n }))
		rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(id)}}})
		if e := firstErr(rs); e != "" {
			t.Fatalf("cancel %s: %s", name, e)
		}
		got[name] = h.waitState(fmt.Sprint(id), job.Cancelled).Tasks
	}
	if diff := cmp.Diff(map[string]int{"without -n": 0, "-n2": 2}, got); diff != "" {
		t.Errorf("tasks (-want +got):\n%s", diff)
	}
}

// TestLastSchedEvalOfPendingJobs: as on the peer, a pending job the
// scheduler keeps trying to place shows the latest pass as LastSchedEval;
// a held one keeps its submit time.
func TestLastSchedEvalOfPendingJobs(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	submit := h.clock.Now().Unix()
	big := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.MinNodes, r.NodesSet = 2, true }))
	held := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	h.cycle()
	h.clock.Advance(time.Minute)
	h.cycle()
	pass := h.clock.Now().Unix()
	got := map[string]int64{"waiting": h.job(fmt.Sprint(big)).LastSchedEval, "held": h.job(fmt.Sprint(held)).LastSchedEval}
	want := map[string]int64{"waiting": pass, "held": submit}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("LastSchedEval (-want +got):\n%s", diff)
	}
}
