package cluster

import (
	"fmt"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

// Suspend marks running job id suspended (scontrol suspend): it keeps its
// resources, and since nobody knows when it will resume, the scheduler
// sees them held with no end (a limit of 0), so no plan counts on them.
func (c *Cluster) Suspend(id sched.JobID) error {
	r, err := c.runningRec(id, "suspend")
	if err != nil {
		return err
	}
	c.running[r.idx].Limit = 0
	return nil
}

// Resume ends the suspension of running job id: its resources free at its
// start plus its time limit plus suspended, the time it spent suspended in
// all (time suspended does not count against the limit). A job without a
// limit keeps none.
func (c *Cluster) Resume(id sched.JobID, suspended time.Duration) error {
	if suspended < 0 {
		return fmt.Errorf("resume job %d: negative suspended time: %w", id, ErrInvalid)
	}
	r, err := c.runningRec(id, "resume")
	if err != nil {
		return err
	}
	run := &c.running[r.idx]
	if limit := c.limitFor(r.spec, run.Partition); limit > 0 {
		run.Limit = limit + suspended
	} else {
		run.Limit = 0
	}
	return nil
}
