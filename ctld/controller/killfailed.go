package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// killFailedEnd handles the end of batch job r whose processes outlived
// SIGKILL on its node (the node asked to be drained, "Kill task failed",
// through ev.Drain). As slurmctld handles a batch completion carrying
// ESLURMD_KILL_TASK_FAILED: a job that ended by itself with a non-zero
// status goes back to the queue when it may be requeued (its run recorded
// NODE_FAIL); any other keeps the end its event gives. It reports whether
// it dealt with the job.
func (c *Controller) killFailedEnd(b *batch, r *jobRecord, node string, ev *api.JobEvent) bool {
	c.log.WithField("job_id", r.ID).WithField("node", node).Error("slurmd error running job: Kill task failed")
	ownEnd := r.St.EndState == "" && ev.Terminated == "" && !ev.TimedOut
	if !ownEnd || ev.ExitCode == (job.ExitCode{}) || !requeues(r) {
		return false
	}
	c.cleanupOtherNodes(b, r)
	// Requeued while running and not being stopped: the run's accounting
	// says NODE_FAIL (acct_runs.go), as slurmctld's requeue logs it.
	b.persist(c.requeueLocked(r, r.St.RequeueHold, 0))
	return true
}
