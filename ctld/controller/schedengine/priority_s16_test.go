package schedengine

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/loamhpc/loam/ctld/controller"
)

// TestS16PriorityEstimate: a job that ends before any cycle (a --deadline
// that cannot be met at submission; the peer shows it with its submission
// priority, not 0) gets the priority a cycle gives it at once, without
// age, and is not left in the engine.
func TestS16PriorityEstimate(t *testing.T) {
	e := newEngineFS(t, fstest.MapFS{"slurm.conf": {Data: []byte(conf +
		"PriorityType=priority/multifactor\nPriorityWeightAge=1000\nPriorityWeightJobSize=1000\nPriorityMaxAge=1-0\n")}})
	now := time.Unix(1000, 0).Add(24 * time.Hour) // a day of age it must not count
	got, err := e.Priority(ej(e), now)
	if err != nil {
		t.Fatal(err)
	}
	if res := e.Cycle(now); len(res.Pending)+len(res.Launches) != 0 {
		t.Fatalf("the job stayed in the engine: %+v", res)
	}
	waiting := ej(e, func(j *controller.EngineJob) { j.Hold = controller.HeldDependency })
	if err := e.Submit(waiting); err != nil {
		t.Fatal(err)
	}
	res := e.Cycle(now)
	if len(res.Pending) != 1 || res.Pending[0].Priority <= 0 || got != res.Pending[0].Priority {
		t.Errorf("priority estimate %d, want %+v's priority (> 0, no age)", got, res.Pending)
	}
}
