package controller

import "github.com/loamhpc/loam/pkg/job"

// pendingReason is the reason a pending job shows (scontrol's Reason=):
// the scheduler's latest verdict, unless a hold or dependency explains
// the wait. A pending job that is cancelled keeps it, as in Slurm
// ("JobState=CANCELLED Reason=JobHeldUser").
func (c *Controller) pendingReason(r *jobRecord) job.Reason {
	if r.St.Hold == NotHeld && r.plan.Reason != "" {
		return r.plan.Reason
	}
	return r.St.Reason
}
