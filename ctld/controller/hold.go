package controller

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/job"
)

// handleHold is scontrol hold and uhold. An operator's hold is
// JobHeldAdmin, which only an operator may release; uhold and a user's own
// hold are JobHeldUser.
func (c *Controller) handleHold(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.HoldRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	h := HeldUser
	if c.isOperator(id) && !in.User {
		h = HeldAdmin
	}
	return c.runOp(ctx, id, filterSpec{JobIDs: in.JobIDs, NotOwner: api.CodeUserIDMissing, FinishedFirst: true}, c.eachSplitTask(func(b *batch, r *jobRecord) *api.Error {
		switch {
		case r.running() && (r.St.EndState == "" || r.St.EndState == job.Requeued):
			// A job being requeued pends already in slurmctld
			// (PENDING|COMPLETING): the hold applies to its next wait.
			c.holdRunning(b, r, h) // hold_running.go
			return nil
		case r.finished() || r.St.EndState != "":
			return api.NewError(api.CodeJobFinished)
		case !r.pending():
			return api.NewError(api.CodeJobNotPending)
		case r.St.Hold == h:
			return nil
		}
		c.unpin(r) // its release recomputes the priority (fixed_priority.go)
		r.St.Hold = h
		r.St.Reason = initialReason(r)
		r.plan = PendingInfo{}
		if err := c.eng.Hold(r.ID, h); err != nil {
			return api.Errorf(api.CodeInternal, "hold job %d: %v", r.ID, err)
		}
		b.persist(c.persistStatus(r))
		return c.inactivePartition(r) // hold_partition.go
	}))
}

// handleRelease is scontrol release.
func (c *Controller) handleRelease(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.ReleaseRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	return c.runOp(ctx, id, filterSpec{JobIDs: in.JobIDs, NotOwner: api.CodeUserIDMissing, FinishedFirst: true}, c.eachSplitTask(func(b *batch, r *jobRecord) *api.Error {
		switch {
		case r.St.Hold == HeldAdmin && !c.isOperator(id):
			return api.Errorf(api.CodeAccessDenied, "job %d was held by an administrator", r.ID)
		case r.St.EndState == job.Requeued:
			c.releaseRequeuing(b, r) // hold_running.go
			return nil
		case r.finished() || r.St.EndState != "":
			return api.NewError(api.CodeJobFinished)
		case r.running() && explicitHold(r):
			c.releaseRunningHold(b, r) // hold_running.go
			return nil
		case !r.pending():
			return api.NewError(api.CodeJobNotPending)
		case r.St.Hold == NotHeld:
			if c.isOperator(id) {
				c.unpin(r) // fixed_priority.go
			}
			c.releaseUnheld(b, r) // hold_running.go
			return c.inactivePartition(r)
		case r.St.Hold != HeldUser && r.St.Hold != HeldAdmin:
			return nil
		}
		c.releaseLocked(r)
		b.persist(c.persistStatus(r))
		return c.inactivePartition(r) // hold_partition.go
	}))
}

// releaseLocked lifts an explicit hold; a dependency may still hold the
// job. Its reason is None until the next scheduling pass, as in Slurm.
func (c *Controller) releaseLocked(r *jobRecord) {
	c.unpin(r) // a requeuehold kept it; the release recomputes (fixed_priority.go)
	r.St.Hold = NotHeld
	r.St.Reason, r.St.Desc = job.ReasonNone, "" // e.g. "Reservation X was deleted"
	// A job requeued in SPECIAL_EXIT state is PENDING again (requeue_op.go).
	r.St.SpecialExit = ""
	r.plan = PendingInfo{}
	now := c.now()
	if err := c.eng.Release(r.ID, now); err != nil {
		c.log.WithError(err).WithField("job_id", r.ID).Warn("release: scheduler did not know the job")
	}
	if r.St.Eligible == 0 && r.St.Begin == 0 {
		r.St.Eligible = unix(now)
	}
	c.evalDependency(r)
	c.schedule()
}

// handleRequeue is scontrol requeue and requeuehold.
func (c *Controller) handleRequeue(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.RequeueRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	// requeuehold and State=SpecialExit hold the job as its user would,
	// whoever asks: slurmctld sets WAIT_HELD_USER for both, so the peer
	// shows JobHeldUser after root's requeuehold and the user may release.
	hold := NotHeld
	if in.Hold || in.SpecialExit {
		hold = HeldUser
	}
	return c.runOp(ctx, id, filterSpec{JobIDs: in.JobIDs}, func(b *batch, r *jobRecord, tasks []int) *api.Error {
		return c.requeueOne(b, r, tasks, hold, &in) // requeue_op.go
	})
}

// runOp runs an operation on many jobs under the lock, then waits for its
// commit and sends its messages.
func (c *Controller) runOp(ctx context.Context, id auth.Identity, spec filterSpec, fn func(b *batch, r *jobRecord, tasks []int) *api.Error) (any, *api.Error) {
	return c.inBatch(ctx, func(b *batch) (any, *api.Error) {
		return c.forEachTarget(id, spec, func(r *jobRecord, tasks []int) *api.Error { return fn(b, r, tasks) })
	})
}

// inBatch runs fn under the lock with a fresh batch, then waits for the
// batch's commit; fn's answer is returned once it is done, and the
// batch's messages to node daemons go once that answer is written
// (afterReply).
func (c *Controller) inBatch(ctx context.Context, fn func(b *batch) (any, *api.Error)) (any, *api.Error) {
	var b batch
	c.mu.Lock()
	out, aerr := fn(&b)
	c.mu.Unlock()
	if aerr != nil {
		return nil, aerr
	}
	if err := c.finishBatchAfterReply(ctx, &b); err != nil {
		return nil, err
	}
	return out, nil
}
