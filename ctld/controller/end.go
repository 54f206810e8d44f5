package controller

import (
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/store"
)

// endStateOf decides how a job the batch node reports ended ends, as Slurm
// reports it.
func endStateOf(ev *api.JobEvent) (job.State, job.Reason) {
	switch ev.Terminated {
	case api.TerminateCancel:
		return job.Cancelled, job.ReasonNone
	case api.TerminateTimeout:
		return job.Timeout, job.ReasonTimeLimit
	case api.TerminateNodeFail:
		return job.NodeFail, job.ReasonNodeDown
	case api.TerminateDeadline:
		return job.Deadline, job.ReasonDeadLine
	}
	switch {
	case ev.OOM:
		return job.OutOfMemory, job.ReasonOutOfMemory
	case ev.TimedOut:
		return job.Timeout, job.ReasonTimeLimit
	case ev.ExitCode.Signal != 0:
		// Slurm 22.05 gives a batch script a signal killed (kill -9 $$,
		// a segfault) Reason=JobLaunchFailure, not NonZeroExitCode.
		return job.Failed, job.ReasonJobLaunchFailure
	case ev.ExitCode != (job.ExitCode{}):
		return job.Failed, job.ReasonNonZeroExitCode
	}
	return job.Completed, job.ReasonNone
}

// jobEnded applies a node daemon's report that a job's batch script ended.
func (c *Controller) jobEnded(b *batch, r *jobRecord, ev *api.JobEvent) {
	if !r.running() {
		return // already ended (a replayed event)
	}
	if ev.KillFailed && c.killFailedEnd(b, r, r.St.BatchHost, ev) { // killfailed.go
		return
	}
	c.cleanupOtherNodes(b, r)
	if r.St.Preempt != 0 {
		c.preemptEnded(b, r, ev) // statistics, checkpoint, notice (preempt.go)
	}
	if r.St.EndState != "" {
		exit := ev.ExitCode
		if r.St.EndState == job.OutOfMemory { // decided before the epilog (nodeprolog.go)
			exit = oomExitCode
		}
		b.persist(c.finishStopped(r, exit))
		return
	}
	st, reason := endStateOf(ev)
	reason = heldEndReason(r, st, reason) // hold_running.go
	exit := ev.ExitCode
	if st == job.OutOfMemory {
		exit = oomExitCode // the raw exit is the kill's (0:9 or 137:0)
	}
	if c.requeueOnExit(b, r, st, exit) { // RequeueExit, RequeueExitHold (requeue_exit.go)
		return
	}
	b.persist(c.finish(r, st, reason, exit))
}

// oomExitCode is the exit code Slurm reports for a job the cgroup's OOM
// killer ended (sacct and scontrol show 0:125).
var oomExitCode = job.ExitCode{Signal: 125}

// finishStopped ends a job the controller was stopping: it takes the state
// decided when the stop began, or goes back to the queue.
func (c *Controller) finishStopped(r *jobRecord, exit job.ExitCode) *store.Pending {
	if r.St.EndState == job.Requeued {
		r.St.ExitCode = exit // the ended run's batch step keeps it (acct_runs.go)
		lost := time.Duration(0)
		if r.St.Preempt != 0 {
			lost = c.now().Sub(fromUnix(r.St.Start))
		}
		return c.requeueLocked(r, r.St.RequeueHold, lost)
	}
	return c.finish(r, r.St.EndState, r.St.EndReason, exit)
}

// requeueLocked puts a running or finished job back in the queue with the
// same id: Restarts+1, a new submit time, the hold asked for.
func (c *Controller) requeueLocked(r *jobRecord, hold Hold, lostRun time.Duration) *store.Pending {
	now := c.now()
	c.keepRun(r, now) // the ended run's accounting record (acct_runs.go)
	wasRunning := r.running()
	if wasRunning {
		if err := c.eng.Requeue(r.ID, now, max(lostRun, 0)); err != nil {
			c.log.WithError(err).WithField("job_id", r.ID).Warn("requeue: scheduler did not know the running job")
		}
	}
	c.detach(r)
	c.forgetSteps(r.ID) // the next run numbers its steps from 0 (step.go)
	c.setState(r, job.Pending)
	st := &r.St
	if st.RequeueCancelled { // the restart it showed becomes a real one
		st.Restarts, st.RequeueCancelled = st.Restarts+1, false
	}
	st.Restarts++
	if wasRunning {
		c.epilogRun(r) // EpilogSlurmctld sees the new count, as on the peer (ctldscripts.go)
	}
	st.LostRun += int64(lostRun / time.Second)
	st.Start, st.End, st.Alloc, st.BatchHost, st.Launched = 0, 0, nil, "", false
	st.PrologFailed = false // the next run's prolog runs again (nodeprolog.go)
	preempted := st.Preempt != 0
	if wasRunning {
		st.ExitCode = job.ExitCode{} // a finished job keeps its last one, as in Slurm
	}
	st.EndState, st.EndReason, st.Preempt, st.StopBy = "", "", 0, 0
	st.Stopped = false // its next run starts unstopped (stopped.go)
	st.Submit, st.Eligible, st.Reason, st.Desc = unix(now), unix(now), job.ReasonNone, ""
	// It accrues again from its new eligible time (convert.go).
	st.Accrue = 0
	hold, desc := requeueHold(r, hold) // hold_running.go
	st.Hold, st.RequeueHold, st.Desc = hold, NotHeld, requeuedDesc(r, desc)
	// requeue_op.go, requeue_delay.go: State=SpecialExit and the BeginTime delay
	c.delayRequeued(r, now, preempted, wasRunning)
	st.Reason = initialReason(r)
	if !wasRunning {
		if err := c.eng.Submit(c.engineJob(r)); err != nil {
			c.log.WithError(err).WithField("job_id", r.ID).Error("requeue: scheduler refused the job")
		}
	} else if hold != NotHeld {
		c.eng.Hold(r.ID, hold)
	}
	id, at := r.ID, unix(now)
	p := c.persistStatus(r)
	c.store.Enqueue(func(tx *store.Tx) error { return tx.AddJobEvent(id, at, "requeue", nil) })
	if wasRunning {
		c.notifyRequeue(r, lostRun)
	}
	c.jobChanged(r)
	c.schedule()
	return p
}

// nodeFailJob handles a running job whose node failed (stopped answering,
// set DOWN, lost the job): a --no-kill job goes on without the node when
// it can (nokill.go); otherwise it is requeued when it may be, NODE_FAIL
// if not.
func (c *Controller) nodeFailJob(b *batch, r *jobRecord, node string) {
	if !r.running() {
		return
	}
	if c.keepWithoutNode(b, r, node) {
		return
	}
	c.cleanupOtherNodes(b, r)
	if r.St.EndState != "" { // it was being stopped anyway
		b.persist(c.finishStopped(r, job.ExitCode{Signal: 9}))
		return
	}
	if requeues(r) {
		lost := c.now().Sub(fromUnix(r.St.Start))
		b.persist(c.requeueLocked(r, r.St.RequeueHold, lost))
		return
	}
	b.persist(c.finish(r, job.NodeFail, job.ReasonNodeDown, job.ExitCode{}))
}

// cleanupOtherNodes tells the nodes of a multi-node job other than the
// batch node to end their part.
func (c *Controller) cleanupOtherNodes(b *batch, r *jobRecord) {
	req := api.TerminateRequest{JobID: r.ID, Reason: api.TerminateCancel, Grace: int64(c.killWait() / time.Second)}
	for _, t := range c.nodeTargets(r) {
		if t.node == r.St.BatchHost {
			continue
		}
		b.sends = append(b.sends, func() {
			c.sendQuiet(t, func(ctx contextT) error { _, err := c.noded.Terminate(ctx, t.addr, &req); return err })
		})
	}
}
