package schedengine

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/loamhpc/loam/ctld/controller"
	"github.com/loamhpc/loam/pkg/job"
)

// TestDependentJobPriority: a job waiting on a dependency gets its
// priority computed, as Slurm does, without age (it is not eligible yet);
// a job held by its user has priority 0.
func TestDependentJobPriority(t *testing.T) {
	e := newEngineFS(t, fstest.MapFS{"slurm.conf": {Data: []byte(conf +
		"PriorityType=priority/multifactor\nPriorityWeightAge=1000\nPriorityWeightJobSize=1000\nPriorityMaxAge=1-0\n")}})
	dep := ej(e, func(j *controller.EngineJob) { j.Hold = controller.HeldDependency })
	held := ej(e, func(j *controller.EngineJob) { j.Hold = controller.HeldUser })
	for _, j := range []*controller.EngineJob{dep, held} {
		if err := e.Submit(j); err != nil {
			t.Fatal(err)
		}
	}
	// A day after submission: a job eligible since then would have the
	// whole age weight.
	res := e.Cycle(time.Unix(1000, 0).Add(24 * time.Hour))
	got := map[uint32]controller.PendingInfo{}
	for _, p := range res.Pending {
		got[p.JobID] = p
	}
	d := got[dep.ID]
	if d.Reason != job.ReasonDependency || d.Priority <= 0 || d.Factors == nil || d.Factors.JobSize <= 0 || d.Factors.Age != 0 {
		t.Errorf("job waiting on a dependency: %+v (factors %+v); want reason Dependency, a priority from its size, no age", d, d.Factors)
	}
	if h := got[held.ID]; h.Reason != job.ReasonJobHeldUser || h.Priority != 0 {
		t.Errorf("held job: %+v; want JobHeldUser with priority 0", h)
	}
}

// TestPendingFactorsEveryCycle: a pending job's factors come with every
// cycle, not only the one where its integer priority changed, so sprio
// never shows stale ones.
func TestPendingFactorsEveryCycle(t *testing.T) {
	e := newEngineFS(t, fstest.MapFS{"slurm.conf": {Data: []byte(conf +
		"PriorityType=priority/multifactor\nPriorityWeightAge=1000\nPriorityWeightJobSize=1000\nPriorityMaxAge=1-0\n")}})
	j := ej(e, func(j *controller.EngineJob) { j.Hold = controller.HeldDependency })
	if err := e.Submit(j); err != nil {
		t.Fatal(err)
	}
	for i, at := range []time.Time{time.Unix(1000, 0), time.Unix(1060, 0)} {
		res := e.Cycle(at)
		if len(res.Pending) != 1 || res.Pending[0].Factors == nil || res.Pending[0].Factors.JobSize <= 0 {
			t.Errorf("cycle %d: pending %+v, want the job with its factors", i+1, res.Pending)
		}
	}
}
