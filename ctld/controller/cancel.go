package controller

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"syscall"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/job"
)

// handleCancel is scancel: cancel the selected jobs, or signal them.
func (c *Controller) handleCancel(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.CancelRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	// Slurm takes any 16-bit signal number; one no process can receive
	// changes nothing (signalJob).
	if in.Signal < 0 || in.Signal > 0xffff {
		return nil, api.Errorf(api.CodeBadRequest, "signal %d out of range", in.Signal)
	}
	f := in.Filter
	spec := filterSpec{JobIDs: f.JobIDs, Users: f.Users, Accounts: f.Accounts, Partitions: f.Partitions,
		States: f.States, Names: f.Names, QOS: f.QOS, Nodes: f.Nodes, Reservations: f.Reservations}
	return c.runOp(ctx, id, spec, func(b *batch, r *jobRecord, tasks []int) *api.Error {
		if in.Step != nil {
			return c.signalStep(b, r, *in.Step, in.Signal) // step_signal.go
		}
		kill := in.Signal == 0 || in.Signal == int(syscall.SIGKILL)
		if !kill || (in.BatchOnly && r.running()) {
			// scancel -b alone kills the batch shell only: the job then
			// ends as its script does, not CANCELLED.
			sig := cmp.Or(in.Signal, int(syscall.SIGKILL))
			return c.signalJob(b, r, api.SignalRequest{Signal: sig, BatchOnly: in.BatchOnly, Full: in.Full})
		}
		if !r.finished() && (r.St.EndState == "" || r.St.EndState == job.Requeued) {
			uid := id.UID
			r.St.CancelledBy = &uid
		}
		return c.cancelJob(b, r, tasks)
	})
}

// cancelJob cancels one record: a pending job at once, a running one by
// asking its nodes to end it.
func (c *Controller) cancelJob(b *batch, r *jobRecord, tasks []int) *api.Error {
	switch {
	case r.finished():
		return api.NewError(api.CodeAlreadyDone)
	case r.pending() && tasks != nil:
		return c.cancelTasks(b, r, tasks)
	case r.pending():
		b.persist(c.cancelPendingLocked(r, c.pendingReason(r)))
	case r.St.EndState == job.Requeued:
		// Being requeued, it pends already in slurmctld (PENDING|
		// COMPLETING), so the cancel holds: once its processes are gone
		// it ends CANCELLED with their exit status, not back in the
		// queue.
		r.St.EndState, r.St.EndReason, r.St.RequeueHold = job.Cancelled, job.ReasonNone, NotHeld
		r.St.SpecialExit, r.St.RequeueCancelled = "", true
		b.persist(c.persistStatus(r))
	case r.St.EndState != "":
		// Already being stopped (COMPLETING): slurmctld answers
		// ESLURM_ALREADY_DONE, which scancel shows only with -v.
		return api.NewError(api.CodeAlreadyDone)
	default:
		c.stopRunning(b, r, job.Cancelled, job.ReasonNone, c.killWait())
	}
	return nil
}

// cancelTasks cancels pending tasks of an array's pending record named
// by task ("12_3", "12_[2-5]"; scancel names a pending record so when a
// filter, signal or -b is given). As slurmctld's job_str_signal does, the
// tasks leave the record's list and no record of them is kept, so no job
// id is used. A record left without tasks ends CANCELLED holding none:
// squeue shows its bare id, scontrol ArrayTaskId=4294967294. Cancelling
// the array by its id ("12") keeps the list instead (cancelJob).
func (c *Controller) cancelTasks(b *batch, r *jobRecord, tasks []int) *api.Error {
	var gone, keep []int
	for _, t := range r.pendingTasks() {
		if slices.Contains(tasks, t) {
			gone = append(gone, t)
		} else {
			keep = append(keep, t)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	if len(keep) == 0 {
		reason := c.pendingReason(r)
		c.setArrayPending(r, "")
		r.St.TasksCut = false
		b.persist(c.cancelPendingLocked(r, reason))
		return nil
	}
	if err := c.eng.CancelTasks(r.ID, gone); err != nil {
		return api.Errorf(api.CodeInternal, "cancel tasks of job %d: %v", r.ID, err)
	}
	c.setArrayPending(r, job.FormatRanges(keep))
	r.St.TasksCut = true
	c.jobChanged(r)
	b.persist(c.persistStatus(r))
	return nil
}

// splitTask makes task t of array record r its own record with id nid.
func (c *Controller) splitTask(r *jobRecord, t int, nid uint32) *jobRecord {
	st := r.St
	st.ArrayPending, st.ArrayTask, st.Alloc, st.Dep = "", t, nil, cloneDep(r.St.Dep)
	return &jobRecord{ID: nid, Req: r.Req, St: st, reqBlob: r.reqBlob}
}

func cloneDep(d *job.Dependency) *job.Dependency {
	if d == nil {
		return nil
	}
	cp := *d
	cp.Deps = slices.Clone(d.Deps)
	return &cp
}

// stopRunning ends a running job through its node daemons: the job shows
// COMPLETING until the batch node reports the end, then takes endState.
// grace is the wait before SIGKILL; the order itself follows from the
// record (terminateRequest).
func (c *Controller) stopRunning(b *batch, r *jobRecord, endState job.State, endReason job.Reason, grace time.Duration) {
	if r.St.State == job.Configuring {
		// PrologSlurmctld still runs: nothing was launched to stop
		// (ctldscripts.go); the job ends now, its prolog's end is ignored.
		r.St.EndState, r.St.EndReason = endState, endReason
		b.persist(c.finishStopped(r, job.ExitCode{}))
		return
	}
	c.setState(r, job.Completing)
	r.St.EndState, r.St.EndReason = endState, endReason
	r.St.StopBy = unix(c.now().Add(grace + c.killWait()))
	b.persist(c.persistStatus(r))
	req := c.terminateRequest(r, grace)
	for _, target := range c.nodeTargets(r) {
		c.sendTerminate(b, req, target, target.node == r.St.BatchHost)
	}
	if len(c.nodeTargets(r)) == 0 {
		b.persist(c.finishStopped(r, job.ExitCode{Signal: int(syscall.SIGTERM)}))
	}
}

// sendTerminate queues req to one node of the job. A batch node that
// cannot be told ends the job here.
func (c *Controller) sendTerminate(b *batch, req api.TerminateRequest, target nodeTarget, batchNode bool) {
	b.sends = append(b.sends, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		_, err := c.noded.Terminate(ctx, target.addr, &req)
		if err != nil && batchNode {
			c.log.WithError(err).WithField("job_id", req.JobID).WithField("node", target.node).Warn("terminate failed; ending the job here")
			c.endUnreachable(req.JobID)
		}
	})
}

// resendTerminate repeats the stop of a job that node n reports running
// while the controller is stopping it: the first order may never have
// left (the controller stopped between persisting the stop and sending
// it), or the node daemon restarted. The kill deadline is the one first
// set; a node that already has the order keeps its own, earlier one.
func (c *Controller) resendTerminate(b *batch, r *jobRecord, n *nodeRec) {
	grace := max(fromUnix(r.St.StopBy).Sub(c.now())-c.killWait(), 0)
	c.sendTerminate(b, c.terminateRequest(r, grace), nodeTarget{node: n.name, addr: n.addr}, n.name == r.St.BatchHost)
}

// terminateRequest is the order that stops job r, being stopped, with
// grace before SIGKILL: a preemption victim gets its checkpoint signal
// first, every other job SIGTERM (Signal 0).
func (c *Controller) terminateRequest(r *jobRecord, grace time.Duration) api.TerminateRequest {
	req := api.TerminateRequest{JobID: r.ID, Reason: stopReason(r), Grace: int64(grace / time.Second)}
	if req.Reason == api.TerminatePreempt {
		req.Signal = c.checkpointSignal(r)
	}
	return req
}

// stopReason is why a job being stopped is stopped, from the state it
// will end in.
func stopReason(r *jobRecord) api.TerminateReason {
	switch r.St.EndState {
	case job.Requeued:
		if r.St.Preempt != 0 {
			return api.TerminatePreempt
		}
		return api.TerminateRequeue
	case job.Preempted:
		return api.TerminatePreempt
	case job.Timeout:
		return api.TerminateTimeout
	case job.Deadline:
		return api.TerminateDeadline
	case job.NodeFail:
		return api.TerminateNodeFail
	}
	return api.TerminateCancel
}

// endUnreachable finishes a job that is being stopped but whose batch node
// cannot be told: the node daemon kills it when it registers again.
func (c *Controller) endUnreachable(id uint32) {
	c.mu.Lock()
	r := c.jobs[id]
	var p interface{ Wait() error }
	if r != nil && r.St.State == job.Completing {
		p = c.finishStopped(r, job.ExitCode{Signal: int(syscall.SIGKILL)})
	}
	c.mu.Unlock()
	if p != nil {
		if err := p.Wait(); err != nil {
			c.fail(fmt.Errorf("persist end of job %d: %w", id, err))
		}
	}
}

// signalJob forwards scancel --signal (req without its job id) to a
// running job's nodes: its batch node only for -b.
func (c *Controller) signalJob(b *batch, r *jobRecord, req api.SignalRequest) *api.Error {
	switch {
	case r.finished():
		return api.NewError(api.CodeAlreadyDone)
	case r.pending():
		return api.NewError(api.CodeTransitionState) // Slurm's answer for a pending job
	case req.Signal > 64:
		return nil // no such signal: Slurm's node daemons ignore it
	}
	req.JobID = r.ID
	for _, target := range c.nodeTargets(r) {
		if req.BatchOnly && target.node != r.St.BatchHost {
			continue
		}
		b.sends = append(b.sends, func() {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			if _, err := c.noded.Signal(ctx, target.addr, &req); err != nil {
				c.log.WithError(err).WithField("job_id", req.JobID).WithField("node", target.node).Warn("signal failed")
				return
			}
			c.noteStopSignal(req.JobID, req.Signal) // stopped.go
		})
	}
	return nil
}

func (c *Controller) killWait() time.Duration { return c.confNow().conf.KillWait }
