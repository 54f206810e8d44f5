package controller

import (
	"context"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/job"
)

// SuspendEngine is what an Engine offers for suspended jobs (package
// schedengine has it). A suspended job keeps its resources: the scheduler
// must see them held, with no known end until the job resumes, and then
// with its end moved by the time it spent suspended. An engine without it
// keeps the job's original end.
type SuspendEngine interface {
	// Suspend marks running job id suspended: its resources free at no
	// known time.
	Suspend(id uint32) error
	// Resume ends id's suspension: its resources free at its start plus
	// its time limit plus suspended, the time it spent suspended in all.
	Resume(id uint32, suspended time.Duration) error
}

// handleSuspend is scontrol suspend and resume (operators only). As in
// Slurm 22.05, suspending a suspended job succeeds and an unknown job id
// answers "Unexpected message received".
func (c *Controller) handleSuspend(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.SuspendRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if len(in.JobIDs) == 0 {
		return nil, api.Errorf(api.CodeInvalidJobID, "no job ids given")
	}
	out, aerr := c.runOp(ctx, id, filterSpec{JobIDs: in.JobIDs}, func(b *batch, r *jobRecord, _ []int) *api.Error {
		if !c.isOperator(id) {
			return api.Errorf(api.CodeAccessDenied, "only operators may suspend or resume jobs")
		}
		if in.Resume {
			return c.resumeJob(b, r)
		}
		return c.suspendJob(b, r)
	})
	if aerr != nil {
		return nil, aerr
	}
	res := out.(*api.JobResults)
	for i, r := range res.Results {
		if r.Error != nil && r.Error.Code == api.CodeInvalidJobID {
			res.Results[i].Error = api.Errorf(api.CodeUnexpectedMessage, "%s", r.Error.Detail)
		}
	}
	return res, nil
}

// suspendJob stops a running job's processes on all its nodes; the job
// keeps its nodes.
func (c *Controller) suspendJob(b *batch, r *jobRecord) *api.Error {
	switch {
	case r.finished():
		return api.NewError(api.CodeAlreadyDone)
	case r.pending():
		return api.NewError(api.CodeJobPending)
	case r.St.State == job.Suspended:
		return nil // Slurm answers success
	case r.St.State == job.Completing || r.St.EndState != "":
		return api.NewError(api.CodeAlreadyDone)
	case r.St.State != job.Running:
		return api.NewError(api.CodeTransitionState)
	}
	now := unix(c.now())
	since := max(r.St.Start, r.St.SuspendTime)
	r.St.PreSuspend += max(now-since, 0)
	r.St.SuspendTime = now
	c.setState(r, job.Suspended)
	if e, ok := c.eng.(SuspendEngine); ok {
		if err := e.Suspend(r.ID); err != nil {
			c.log.WithError(err).WithField("job_id", r.ID).Warn("suspend: scheduler did not know the running job")
		}
	}
	b.persist(c.persistStatus(r))
	c.sendSuspend(b, r, c.nodeTargets(r))
	c.log.WithField("job_id", r.ID).Info("job suspended")
	return nil
}

// resumeJob lets a suspended job's processes go on; its end moves by the
// time it was suspended (closeSuspension).
func (c *Controller) resumeJob(b *batch, r *jobRecord) *api.Error {
	switch {
	case r.finished():
		return api.NewError(api.CodeAlreadyDone)
	case r.pending():
		return api.NewError(api.CodeJobPending)
	case r.St.State != job.Suspended:
		return api.NewError(api.CodeJobNotSuspended)
	}
	c.setState(r, job.Running)
	b.persist(c.persistStatus(r))
	c.sendSuspend(b, r, c.nodeTargets(r))
	c.log.WithField("job_id", r.ID).Info("job resumed")
	return nil
}

// closeSuspension ends r's suspension as r leaves SUSPENDED for next
// (resumed, stopped, ended or requeued): the time suspended is added up,
// and a job that still holds its resources gets its end back, moved.
func (c *Controller) closeSuspension(r *jobRecord, next job.State) {
	now := unix(c.now())
	r.St.Suspended += max(now-r.St.SuspendTime, 0)
	r.St.SuspendTime = now
	if next != job.Running && next != job.Completing {
		return // the scheduler no longer holds the job
	}
	if e, ok := c.eng.(SuspendEngine); ok {
		if err := e.Resume(r.ID, time.Duration(r.St.Suspended)*time.Second); err != nil {
			c.log.WithError(err).WithField("job_id", r.ID).Warn("resume: scheduler did not know the running job")
		}
	}
}

// restoreSuspension tells the scheduler, after a restart, what it knew of
// a restored running job's suspensions.
func (c *Controller) restoreSuspension(r *jobRecord) {
	e, ok := c.eng.(SuspendEngine)
	if !ok || r.St.SuspendTime == 0 {
		return
	}
	var err error
	if r.St.State == job.Suspended {
		err = e.Suspend(r.ID)
	} else {
		err = e.Resume(r.ID, time.Duration(r.St.Suspended)*time.Second)
	}
	if err != nil {
		c.log.WithError(err).WithField("job_id", r.ID).Warn("restore: scheduler refused the suspension of a job")
	}
}

// sendSuspend queues the order that makes r's processes on targets match
// its state: frozen while SUSPENDED, thawed otherwise.
func (c *Controller) sendSuspend(b *batch, r *jobRecord, targets []nodeTarget) {
	req := api.NodeSuspendRequest{JobID: r.ID, Resume: r.St.State != job.Suspended}
	for _, t := range targets {
		b.sends = append(b.sends, func() {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			if _, err := c.noded.Suspend(ctx, t.addr, &req); err != nil {
				c.log.WithError(err).WithField("job_id", req.JobID).WithField("node", t.node).
					WithField("resume", req.Resume).Warn("suspend order failed; repeated when the node registers")
			}
		})
	}
}

// resendSuspend repeats a job's suspend or resume order to a registering
// node: the first may never have arrived.
func (c *Controller) resendSuspend(b *batch, r *jobRecord, n *nodeRec) {
	if r.St.SuspendTime == 0 {
		return // never suspended
	}
	c.sendSuspend(b, r, []nodeTarget{{node: n.name, addr: n.addr}})
}

// runEnd is when running job r's time limit runs out, its suspensions
// added; ok is false for a job without a limit or suspended now.
func runEnd(r *jobRecord) (time.Time, bool) {
	if r.St.TimeLimit <= 0 || r.St.Start == 0 || r.St.State == job.Suspended {
		return time.Time{}, false
	}
	return fromUnix(r.St.Start + r.St.TimeLimit + r.St.Suspended), true
}

// fillSuspension shows r's suspensions in j: Slurm's SuspendTime and
// SecsPreSuspend, and an end moved by the time suspended.
func fillSuspension(j *api.Job, st *jobStatus) {
	j.SuspendTime, j.SecsPreSuspend, j.SuspendedSecs = st.SuspendTime, st.PreSuspend, st.Suspended
	if st.End == 0 && st.Start != 0 && j.EndTime != 0 && j.TimeLimit != api.UnlimitedSeconds {
		j.EndTime += st.Suspended
	}
}
