package schedengine

import (
	"time"

	"github.com/loamhpc/loam/ctld/controller"
	"github.com/loamhpc/loam/pkg/sched"
)

var _ controller.SuspendEngine = (*Engine)(nil)

// Suspend implements controller.SuspendEngine.
func (e *Engine) Suspend(id uint32) error { return e.cl.Suspend(sched.JobID(id)) }

// Resume implements controller.SuspendEngine.
func (e *Engine) Resume(id uint32, suspended time.Duration) error {
	return e.cl.Resume(sched.JobID(id), suspended)
}
