package controller

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
)

// TestS16AccrueArrayStartedAtOnce: on the peer (sbatch -a 1-2 started in
// the pass that first saw it) every task shows AccrueTime = the submit
// time, as a plain batch job does; only allocations show it Unknown.
func TestS16AccrueArrayStartedAtOnce(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	submit := h.clock.Now().Unix()
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "1-2" }))
	h.cycle()
	got := map[string]int64{}
	for _, jid := range []uint32{id, id + 1} {
		j := h.waitState(fmt.Sprint(jid), job.Running)
		got[fmt.Sprintf("task %d", *j.ArrayTaskID)] = j.AccrueTime
	}
	want := map[string]int64{"task 1": submit, "task 2": submit}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("AccrueTime (-want +got):\n%s", diff)
	}
}
