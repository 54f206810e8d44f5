package cluster

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/sched"
)

// TestSuspendedJobAccruesUsage: as Slurm 22.05's priority/multifactor
// (decay_apply_new_usage charges every job that is neither pending nor
// finished), a suspended job, which keeps its resources, is charged
// fair-share usage exactly as a running one.
func TestSuspendedJobAccruesUsage(t *testing.T) {
	usage := func(suspend bool) []sched.Usage {
		c := newTestCluster(t, 1)
		mustSubmit(t, c, spec(1, 4))
		mustApply(t, c, startPlan(at(10), 1, alloc("gpu01", 0, 1, 2, 3)))
		c.Advance(at(10))
		if suspend {
			if err := c.Suspend(1); err != nil {
				t.Fatalf("Suspend: %v", err)
			}
		}
		c.Advance(at(110))
		return c.Usage()
	}
	running, suspended := usage(false), usage(true)
	if diff := cmp.Diff(running, suspended); diff != "" {
		t.Errorf("usage of a suspended job (-running +suspended):\n%s", diff)
	}
	if len(running) == 0 || running[0].GPUSec < 300 {
		t.Errorf("usage of 4 GPUs over 100 s = %+v, want about 400 GPU-seconds", running)
	}
}
