package controller

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestUsageRidesOnTheEndEvent: what the batch node measured reaches the
// job's accounting record as its batch step's usage; a job still pending
// has no steps for sstat, an unknown id is refused.
func TestUsageRidesOnTheEndEvent(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	var st api.StepStatResponse
	if err := h.call(alice, api.PathStepStat, api.StepStatRequest{JobID: id}, &st); err != nil || !st.NoSteps {
		t.Fatalf("pending job: %+v, %v; want no steps running", st, err)
	}
	if err := h.call(alice, api.PathStepStat, api.StepStatRequest{JobID: id + 100}, &st); err == nil || err.Code != api.CodeInvalidJobID {
		t.Fatalf("unknown job: %v, want an invalid job id", err)
	}
	h.cycle()
	h.waitState(fmt.Sprint(id), job.Running)
	batch := api.NodeUsage{Node: "n01", MemPeak: 1 << 20, Tasks: []api.TaskUsage{{UserUsec: 300_000, SysUsec: 5_000, MaxRSS: 50 << 20}}}
	if err := n.End(id, job.ExitCode{}, func(ev *api.JobEvent) { ev.Usage = &api.JobUsage{Batch: &batch} }); err != nil {
		t.Fatal(err)
	}
	h.waitState(fmt.Sprint(id), job.Completed)
	var acct api.AcctResponse
	if err := h.call(alice, api.PathAccounting, api.AcctQuery{JobIDs: []string{fmt.Sprint(id)}}, &acct); err != nil {
		t.Fatal(err)
	}
	if len(acct.Jobs) != 1 || len(acct.Jobs[0].Steps) == 0 {
		t.Fatalf("accounting %+v", acct)
	}
	got := acct.Jobs[0].Steps[0]
	want := &api.StepUsage{Nodes: []api.NodeUsage{batch}}
	if diff := cmp.Diff(want, got.Usage); diff != "" || got.Tasks != 1 {
		t.Errorf("batch step tasks %d, usage (-want +got):\n%s", got.Tasks, diff)
	}
	if err := h.call(alice, api.PathStepStat, api.StepStatRequest{JobID: id}, &st); err != nil || !st.NoSteps {
		t.Errorf("ended job: %+v, %v; want no steps running", st, err)
	}
}
