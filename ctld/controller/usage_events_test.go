package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/job"
)

// sendEvents hands a batch of node's events to the controller as its
// daemon would, and returns the acknowledged number.
func (h *harness) sendEvents(node string, evs ...api.JobEvent) uint64 {
	h.t.Helper()
	body, _ := json.Marshal(api.JobEventsRequest{Node: node, Events: evs})
	out, aerr := h.c.handleEvents(context.Background(), auth.Identity{}, body)
	if aerr != nil {
		h.t.Fatal(aerr)
	}
	return out.(*api.JobEventsResponse).Acked
}

// stepUsageOf is step's usage in the accounting of job id.
func (h *harness) stepUsageOf(id uint32, step string) *api.StepUsage {
	h.t.Helper()
	var acct api.AcctResponse
	if err := h.call(alice, api.PathAccounting, api.AcctQuery{JobIDs: []string{fmt.Sprint(id)}}, &acct); err != nil {
		h.t.Fatal(err)
	}
	for _, j := range acct.Jobs {
		for _, s := range j.Steps {
			if s.StepID == step {
				return s.Usage
			}
		}
	}
	h.t.Fatalf("job %d has no step %s: %+v", id, step, acct)
	return nil
}

func stepUsageEvent(seq uint64, id, step uint32, n api.NodeUsage) api.JobEvent {
	return api.JobEvent{Seq: seq, JobID: id, Kind: api.EventStepUsage,
		Usage: &api.JobUsage{Steps: []api.StepNodeUsage{{StepID: step, Usage: n}}}}
}

// TestUsageStepEventWhileTheJobRuns: a step's usage event reaches its
// accounting record while the job still runs, is applied once (a retried
// batch with the same number changes nothing), survives a restart of the
// controller, and a step that ends after its job's end still gets its
// numbers.
func TestUsageStepEventWhileTheJobRuns(t *testing.T) {
	h := newHarness(t)
	sn := h.stepNode("n01")
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.NTasks = 2 }))
	h.cycle()
	h.waitState(fmt.Sprint(id), job.Running)
	for step := range 2 {
		if err := h.call(alice, api.PathStepCreate, stepReq(id), nil); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
	}
	if err := h.call(alice, api.PathStepComplete, api.StepCompleteRequest{JobID: id, StepID: 0, State: job.Completed}, nil); err != nil {
		t.Fatal(err)
	}
	u0 := api.NodeUsage{Node: "n01", MemPeak: 8 << 20, Tasks: []api.TaskUsage{{Task: 0, UserUsec: 250_000, MaxRSS: 20 << 20}}}
	const seq = 1 << 40
	if acked := h.sendEvents("n01", stepUsageEvent(seq, id, 0, u0)); acked != seq {
		t.Errorf("acknowledged %d, want %d", acked, seq)
	}
	want := &api.StepUsage{Nodes: []api.NodeUsage{u0}}
	if diff := cmp.Diff(want, h.stepUsageOf(id, "0")); diff != "" {
		t.Errorf("step 0 while the job runs (-want +got):\n%s", diff)
	}

	// The daemon did not hear the acknowledgement and sends the batch
	// again; a different report under the same number must not count.
	forged := u0
	forged.Tasks = []api.TaskUsage{{Task: 0, UserUsec: 999_000_000}}
	if acked := h.sendEvents("n01", stepUsageEvent(seq, id, 0, forged)); acked != seq {
		t.Errorf("retried batch acknowledged %d, want %d", acked, seq)
	}
	if diff := cmp.Diff(want, h.stepUsageOf(id, "0")); diff != "" {
		t.Errorf("step 0 after a retried batch (-want +got):\n%s", diff)
	}
	h.restart()
	if diff := cmp.Diff(want, h.stepUsageOf(id, "0")); diff != "" {
		t.Errorf("step 0 after a restart (-want +got):\n%s", diff)
	}

	// In order: the job's end, then step 1's usage measured after it.
	sn.register()
	u1 := api.NodeUsage{Node: "n01", Tasks: []api.TaskUsage{{Task: 0, SysUsec: 7_000, MaxRSS: 1 << 20}}}
	end := api.JobEvent{Seq: seq + 1, JobID: id, Kind: api.EventEnded}
	h.sendEvents("n01", end, stepUsageEvent(seq+2, id, 1, u1))
	h.waitState(fmt.Sprint(id), job.Completed)
	if diff := cmp.Diff(&api.StepUsage{Nodes: []api.NodeUsage{u1}}, h.stepUsageOf(id, "1")); diff != "" {
		t.Errorf("step 1 after the job's end (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, h.stepUsageOf(id, "0")); diff != "" {
		t.Errorf("step 0 after the job's end (-want +got):\n%s", diff)
	}
}
