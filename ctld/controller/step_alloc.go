package controller

import (
	"context"
	"fmt"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/job"
)

// Interactive allocations (salloc, srun outside a job) are jobs without a
// batch script: every node of the job, the first included, only holds its
// cgroup for steps, and the client that asked for the job releases it.
//
//	allocate --> PENDING --cycle--> RUNNING (ready: a step launch waits
//	                                   |     for the job on its nodes)
//	     release (client's command exited) --> COMPLETED | FAILED
//	     scancel, time limit, preemption   --> as for batch jobs
//
// A client that dies without releasing leaves the job to its time limit,
// as Slurm does with InactiveLimit=0.

// allocationPlaceholder passes the submit checks that want a script; the
// job never keeps it.
const allocationPlaceholder = "#!/bin/sh\n# interactive allocation\n"

// handleAllocate creates an interactive allocation.
func (c *Controller) handleAllocate(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.AllocateRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	switch {
	case in.Job.Script != "":
		return nil, api.Errorf(api.CodeBadRequest, "an allocation has no batch script")
	case in.Job.Array != "":
		return nil, api.Errorf(api.CodeInvalidArray, "an allocation cannot be a job array")
	}
	sub := api.SubmitRequest{Job: in.Job, SubmitHost: in.SubmitHost}
	sub.Job.AllocNode = c.allocNode(ctx) // alloc_node.go
	sub.Job.Script = allocationPlaceholder
	a, aerr := c.admit(c.confNow(), id, &sub, c.now())
	if aerr != nil {
		c.burnIDFor(aerr)
		return nil, aerr
	}
	if in.TestOnly {
		return c.testOnly(a) // submit.go
	}
	// An interactive job keeps JobRequeue's default as its Requeue flag
	// (the peer shows Requeue=1) but is never requeued: its client would
	// not know. Requeue, preemption and node failure requeue batch jobs
	// only (requeue_op.go, submit.go engineJob, end.go nodeFailJob).
	a.req.Script = ""
	if in.Command != "" {
		a.req.Argv = []string{in.Command} // Command= (convert.go commandOf)
	}
	rec, pend, aerr := c.createJob(a)
	if aerr != nil {
		return nil, aerr
	}
	if err := pend.Wait(); err != nil {
		c.fail(fmt.Errorf("persist job %d: %w", rec.ID, err))
		return nil, api.Errorf(api.CodeWritingToFile, "job %d was not saved: %v", rec.ID, err)
	}
	c.schedule()
	c.log.WithField("job_id", rec.ID).WithField("user", a.req.UserName).Debug("allocation submitted")
	return &api.SubmitResponse{JobID: rec.ID}, nil
}

// allocationPoll is how often a wait re-reads the job.
const allocationPoll = 10 * time.Millisecond

// handleAllocationWait answers once the allocation runs, has ended, or the
// wait (at most a minute) is over.
func (c *Controller) handleAllocationWait(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.AllocationWaitRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	wait := time.Duration(min(max(in.Timeout, 0), 60)) * time.Second
	deadline := time.Now().Add(wait)
	tick := time.NewTicker(allocationPoll)
	defer tick.Stop()
	for {
		a, aerr := c.allocation(in.JobID)
		if aerr != nil || a.Ready || a.Ended || !time.Now().Before(deadline) {
			return a, aerr
		}
		select {
		case <-ctx.Done():
			return a, nil
		case <-tick.C:
		}
	}
}

// allocation describes job id as its interactive client sees it.
func (c *Controller) allocation(id uint32) (*api.Allocation, *api.Error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	r := c.jobs[id]
	if r == nil {
		if end, ok := c.lookupEnded(id); ok {
			return &api.Allocation{JobID: id, State: end.state, Ended: true}, nil
		}
		return nil, api.NewError(api.CodeInvalidJobID)
	}
	q, st := r.Req, &r.St
	a := &api.Allocation{JobID: id, State: st.State, Reason: st.Reason, Name: q.Name, Partition: st.Partition,
		ClusterName: c.confNow().conf.ClusterName, NTasks: q.NTasks,
		Ended: r.finished() || st.EndState != "", Ready: r.running() && st.State != job.Configuring && st.EndState == ""}
	if r.prologFailed {
		a.Cause = api.CausePrologFailed
	}
	if len(st.Alloc) > 0 {
		a.Nodes, a.NodeList, a.TasksPerNode = st.Alloc, allocNodes(st.Alloc), tasksPerNode(q, st.Alloc)
	}
	// Only what was asked for: the peer's salloc sets SLURM_MEM_PER_CPU
	// for --mem-per-cpu but not from DefMemPerCPU.
	if q.MemPerNode != nil {
		a.MemPerNode = *q.MemPerNode
	} else if q.MemPerCPU != nil {
		a.MemPerCPU = *q.MemPerCPU
	}
	return a, nil
}

// handleAllocationRelease ends an interactive allocation whose client's
// command exited: COMPLETED for exit 0, FAILED otherwise, and its nodes
// kill whatever is left.
func (c *Controller) handleAllocationRelease(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.AllocationReleaseRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	var b batch
	c.mu.Lock()
	r := c.jobs[in.JobID]
	switch {
	case r == nil:
		c.mu.Unlock()
		return nil, api.NewError(api.CodeInvalidJobID)
	case !c.canModify(id, r):
		c.mu.Unlock()
		return nil, api.NewError(api.CodeAccessDenied)
	case r.pending():
		b.persist(c.cancelPendingLocked(r, job.ReasonNone))
	case r.running() && r.St.EndState == "" && r.Req.Script == "":
		c.releaseRunning(&b, r, in.ExitCode)
	}
	c.mu.Unlock()
	if err := c.finishBatch(&b); err != nil {
		return nil, err
	}
	return struct{}{}, nil
}

// releaseRunning finishes a running allocation at once and tells its
// nodes to end their part; their end reports then find it finished.
func (c *Controller) releaseRunning(b *batch, r *jobRecord, exit job.ExitCode) {
	targets := c.nodeTargets(r)
	st, reason := job.Completed, job.ReasonNone
	if exit != (job.ExitCode{}) {
		st, reason = job.Failed, job.ReasonNonZeroExitCode
	}
	b.persist(c.finish(r, st, reason, exit))
	req := api.TerminateRequest{JobID: r.ID, Reason: api.TerminateCancel, Grace: int64(c.killWait() / time.Second)}
	for _, t := range targets {
		b.sends = append(b.sends, func() {
			c.sendQuiet(t, func(ctx contextT) error { _, err := c.noded.Terminate(ctx, t.addr, &req); return err })
		})
	}
}
