package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// specialExitDesc is how Slurm describes a job requeue State=SpecialExit
// put back (requeuehold State=SpecialExit reads "job requeued in held
// state").
const specialExitDesc = "job requeued in special exit state"

// requeueOne is scontrol requeue (or requeuehold) of one job, checked in
// slurmctld's order (_job_requeue_op): with Incomplete a job that is not
// running is left alone without an error; then an allocation (salloc,
// srun) is refused (BatchOnly), a --no-requeue job too (Disabled), a
// pending job, or one already being requeued, is "pending execution". A
// finished job (completed, failed, cancelled...) is requeued at once; a
// running one once it has been stopped, as is one already being stopped
// (cancelled a moment ago, still COMPLETING).
func (c *Controller) requeueOne(b *batch, r *jobRecord, tasks []int, hold Hold, in *api.RequeueRequest) *api.Error {
	pending := tasks != nil || r.pending() || r.St.EndState == job.Requeued // tasks of a pending array pend
	switch {
	case in.Incomplete && (!r.running() || r.St.EndState == job.Requeued):
		return nil // only running jobs; one being requeued pends already
	case r.Req.Script == "": // before Disabled: Loam's allocations never requeue
		return api.NewError(api.CodeBatchOnly)
	case !r.St.Requeue:
		return api.Errorf(api.CodeDisabled, "job %d is not requeueable (--no-requeue)", r.ID)
	case pending:
		return api.NewError(api.CodeJobPending)
	}
	r.St.SpecialExit = ""
	if in.SpecialExit {
		r.St.SpecialExit = specialExitDesc
		if in.Hold {
			r.St.SpecialExit = requeuedHeldDesc
		}
	}
	if r.finished() {
		b.persist(c.requeueLocked(r, hold, 0))
		return nil
	}
	r.St.RequeueHold = hold
	if hold != NotHeld {
		// slurmctld holds it at once (PENDING|COMPLETING): squeue shows
		// the COMPLETING job with "job requeued in held state".
		r.St.Reason, r.St.Desc = job.ReasonJobHeldUser, requeuedDesc(r, requeuedHeldDesc)
	}
	if r.St.EndState != "" {
		// Being stopped already (scancel a moment ago, COMPLETING): the
		// peer accepts and the job goes back to the queue once its
		// processes are gone, instead of ending as cancelled.
		r.St.EndState, r.St.EndReason, r.St.CancelledBy = job.Requeued, job.ReasonNone, nil
		b.persist(c.persistStatus(r))
		return nil
	}
	c.stopRunning(b, r, job.Requeued, job.ReasonNone, c.killWait())
	return nil
}

// requeuedDesc is the description a requeued job takes: the special exit
// one when State=SpecialExit was asked for, else desc.
func requeuedDesc(r *jobRecord, desc string) string {
	if r.St.SpecialExit != "" {
		return r.St.SpecialExit
	}
	return desc
}
