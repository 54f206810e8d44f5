package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestTriggerJobNodeDown: a job's --down trigger fires with the job id
// when a node of the job goes down, as Slurm's, though the job was
// requeued before the next pass; another job's, on a node that stays up,
// does not.
func TestTriggerJobNodeDown(t *testing.T) {
	h, prog, _, rr := trigHarness(t)
	h.node("n01")
	h.node("n02")
	whole := simpleJob(func(r *job.Request) { r.NTasks = 8 })
	a := h.mustSubmit(alice, whole)
	b := h.mustSubmit(alice, whole)
	h.cycle()
	if n := h.waitState(fmt.Sprint(a), job.Running).Nodes; n != "n01" {
		t.Fatalf("job %d on %s, want n01", a, n)
	}
	h.waitState(fmt.Sprint(b), job.Running)
	for _, id := range []uint32{a, b} {
		tr := api.Trigger{ResType: api.TrigResJob, ResID: fmt.Sprint(id), Type: api.TrigDown, Program: prog + " down"}
		if _, err := setTrigger(h, 0, tr); err != nil {
			t.Fatalf("set: %v", err)
		}
	}
	// No pass between the trigger and the event: the node's jobs are
	// seen where the controller marks it down, before it requeues them.
	if err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n01", State: "DOWN", Reason: "x"}, nil); err != nil {
		t.Fatalf("down: %v", err)
	}
	h.tick(time.Second)
	if diff := cmp.Diff([]string{prog + " " + fmt.Sprint(a)}, rr.take()); diff != "" {
		t.Errorf("fired (-want +got):\n%s", diff)
	}
}
