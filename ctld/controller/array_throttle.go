package controller

import "github.com/loamhpc/loam/pkg/job"

// noteThrottled marks the array records a cycle left waiting on their
// throttle (--array=...%N). It runs after the cycle's launches, so the
// tasks the first cycle starts within the throttle are not marked.
func (c *Controller) noteThrottled(res *CycleResult) {
	for _, p := range res.Pending {
		if p.Reason != job.ReasonJobArrayTaskLimit {
			continue
		}
		if r := c.jobs[p.JobID]; r != nil && r.arrayRecord() {
			r.throttleHeld = true
		}
	}
}

// throttledTask tells whether the tasks of array record r waited for the
// throttle to let them go: Slurm makes such a task eligible only then, so
// scontrol shows that moment as its EligibleTime (its AccrueTime stays
// the array's), where the tasks started within the throttle keep the
// submit time (checked on the peer).
func throttledTask(r *jobRecord) bool {
	return r.arrayRecord() && r.throttleHeld
}
