package schedengine

import (
	"fmt"
	"time"

	"github.com/loamhpc/loam/ctld/controller"
)

// Priority implements the controller's priority estimate for a job that
// ends before any cycle saw it: the job is added waiting on a dependency
// (so it cannot start and has no age yet), one cycle is computed without
// applying it, and the job is taken out again.
func (e *Engine) Priority(j *controller.EngineJob, now time.Time) (int64, error) {
	single := *j
	single.ArrayTasks, single.Throttle, single.Hold = nil, 0, controller.HeldDependency
	s, err := e.spec(&single)
	if err != nil {
		return 0, err
	}
	if err := e.cl.Submit(s); err != nil {
		return 0, err
	}
	defer e.cl.Cancel(s.ID)
	e.cl.Advance(now)
	plan := e.sched.Cycle(e.cl.Snapshot(now))
	for _, p := range plan.Pending {
		if p.Job == s.ID {
			return p.Priority, nil
		}
	}
	return 0, fmt.Errorf("priority of job %d: not in the plan", j.ID)
}
