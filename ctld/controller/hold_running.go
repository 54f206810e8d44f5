package controller

import "github.com/loamhpc/loam/pkg/job"

// requeuedHeldDesc is how Slurm describes a job scontrol requeuehold put
// back: scontrol shows Reason=job_requeued_in_held_state, squeue %r
// "job requeued in held state".
const requeuedHeldDesc = "job requeued in held state"

// explicitHold reports whether r carries scontrol hold or uhold.
func explicitHold(r *jobRecord) bool { return r.St.Hold == HeldUser || r.St.Hold == HeldAdmin }

// holdRunning holds a running job as slurmctld does: it keeps running,
// shows priority 0 and Reason=JobHeldAdmin (or JobHeldUser), keeps that
// reason when it completes, and stays held if it is requeued.
func (c *Controller) holdRunning(b *batch, r *jobRecord, h Hold) {
	r.St.Hold = h
	r.St.Reason = initialReason(r)
	b.persist(c.persistStatus(r))
}

// releaseRunningHold lifts the hold of a running job.
func (c *Controller) releaseRunningHold(b *batch, r *jobRecord) {
	r.St.Hold = NotHeld
	r.St.Reason = job.ReasonNone
	b.persist(c.persistStatus(r))
}

// heldEndReason is the reason a held running job that completed keeps.
func heldEndReason(r *jobRecord, st job.State, reason job.Reason) job.Reason {
	if st == job.Completed && explicitHold(r) {
		return r.St.Reason
	}
	return reason
}

// requeueHold is the hold a requeued job takes: the one requeuehold asked
// for, else the explicit hold the running job carried; desc is the
// description requeuehold leaves.
func requeueHold(r *jobRecord, asked Hold) (h Hold, desc string) {
	switch {
	case asked != NotHeld:
		return asked, requeuedHeldDesc
	case explicitHold(r):
		return r.St.Hold, ""
	}
	return NotHeld, ""
}

// releaseUnheld is release of a pending job that is not held: as
// slurmctld, it forgets the reason the job waits for (Reason=None) until
// the next scheduling pass finds it again (BeginTime, Priority...).
func (c *Controller) releaseUnheld(b *batch, r *jobRecord) {
	r.St.Reason, r.St.Desc = job.ReasonNone, ""
	r.plan = PendingInfo{}
	b.persist(c.persistStatus(r))
}

// releaseRequeuing is release of a job being requeued (slurmctld has it
// PENDING|COMPLETING): the hold requeuehold or hold put on its next wait
// is lifted, so it pends as a plain requeued job (BeginTime) once its
// processes are gone.
func (c *Controller) releaseRequeuing(b *batch, r *jobRecord) {
	r.St.Hold, r.St.RequeueHold = NotHeld, NotHeld
	r.St.SpecialExit = ""
	r.St.Reason, r.St.Desc = job.ReasonNone, ""
	b.persist(c.persistStatus(r))
}
