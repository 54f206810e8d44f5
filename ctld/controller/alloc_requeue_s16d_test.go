package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestAllocationRequeueCommandS16D: an allocation srun made shows
// Requeue=1 (JobRequeue's default) and srun's program as Command, as the
// peer's scontrol show job did (srun /bin/sleep 30: Requeue=1
// Command=/bin/sleep; salloc: Command=(null)); a node failure still ends
// it NODE_FAIL: only batch jobs requeue.
func TestAllocationRequeueCommandS16D(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	got := map[string]string{}
	for name, cmd := range map[string]string{"srun": "/bin/sleep", "salloc": ""} {
		var sub api.SubmitResponse
		in := api.AllocateRequest{Job: job.Request{Name: name, WorkDir: "/tmp"}, Command: cmd}
		if err := h.call(alice, api.PathAllocate, in, &sub); err != nil {
			t.Fatal(err)
		}
		h.cycle()
		j := h.waitState(fmt.Sprint(sub.JobID), job.Running)
		got[name] = fmt.Sprintf("requeue=%t command=%q", j.Requeue, j.Command)
		if name == "srun" {
			defer func() {
				n.Stop()
				h.tick(2 * time.Minute)
				if j := h.job(fmt.Sprint(sub.JobID)); j.JobState != job.NodeFail {
					t.Errorf("allocation of a failed node: %s, want NODE_FAIL", j.JobState)
				}
			}()
		}
	}
	want := map[string]string{"srun": `requeue=true command="/bin/sleep"`, "salloc": `requeue=true command=""`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("allocations (-want +got):\n%s", diff)
	}
}
