package controller

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/store"
)

// handleSubmit is sbatch: admit, create the job, persist, answer.
func (c *Controller) handleSubmit(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.SubmitRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	now := c.now()
	in.Job.AllocNode = c.allocNode(ctx) // alloc_node.go
	a, aerr := c.admit(c.confNow(), id, &in, now)
	if aerr != nil {
		c.burnIDFor(aerr)
		return nil, aerr
	}
	if in.TestOnly {
		return c.testOnly(a)
	}
	rec, pend, aerr := c.createJob(a)
	if aerr != nil {
		return nil, aerr
	}
	if err := pend.Wait(); err != nil {
		c.fail(fmt.Errorf("persist job %d: %w", rec.ID, err))
		return nil, api.Errorf(api.CodeWritingToFile, "job %d was not saved: %v", rec.ID, err)
	}
	if rec.St.Hold == NotHeld && rec.St.Begin == 0 {
		c.schedule() // a held or delayed job cannot start: no cycle for it
	}
	c.log.WithField("job_id", rec.ID).WithField("user", a.req.UserName).WithField("partition", strings.Join(a.partitions, ",")).Debug("job submitted")
	out := &api.SubmitResponse{JobID: rec.ID}
	if a.array != nil {
		out.ArrayTaskCount = a.array.Count()
	}
	return out, nil
}

func (c *Controller) burnID() uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.eng.NextID()
}

// createJob checks what depends on live state, gives the job its id, adds
// it to memory and the engine, and enqueues its persistence, all under the
// lock so the store sees jobs in id order.
func (c *Controller) createJob(a *admitted) (*jobRecord, *store.Pending, *api.Error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tasks := 1
	if a.array != nil {
		tasks = a.array.Count()
	}
	if max := c.confNow().conf.MaxJobCount; int64(c.tasks+tasks) > max {
		c.eng.NextID()
		return nil, nil, api.Errorf(api.CodeAgain, "MaxJobCount limit (%d) reached", max)
	}
	if aerr := c.checkDependencyTargets(a.dep); aerr != nil {
		c.eng.NextID()
		return nil, nil, aerr
	}
	if aerr := c.preCheckLive(a); aerr != nil {
		c.eng.NextID()
		return nil, nil, aerr
	}
	rec := c.newRecord(c.eng.NextID(), a)
	c.obs.m.submitted.Inc()
	c.evalDependency(rec)
	if !rec.finished() && deadlineMissed(rec, c.now()) { // deadline.go
		c.endMissedAtSubmit(rec)
	}
	if rec.St.Hold != NotHeld {
		// Waiting on a dependency: eligible once it is met (setDepHold),
		// as Slurm shows EligibleTime and AccrueTime Unknown until then.
		rec.St.Eligible = 0
	}
	if !rec.finished() {
		if err := c.eng.Submit(c.engineJob(rec)); err != nil {
			return nil, nil, api.Errorf(api.CodeNodeConfigUnavailable, "%v", err)
		}
	}
	c.addRecord(rec)
	c.splitCorr(rec) // deps_corr.go: an aftercorr array of few tasks splits now
	id, reqBlob, stBlob := rec.ID, rec.requestBlob(), rec.statusBlob()
	rec.reqBlob = nil
	pend := c.store.Enqueue(func(tx *store.Tx) error {
		return errors.Join(tx.PutJob(id, reqBlob, stBlob), tx.SetNextJobID(id+1))
	})
	return rec, pend, nil
}

// newRecord builds the record of a new job.
func (c *Controller) newRecord(id uint32, a *admitted) *jobRecord {
	now := unix(c.now())
	a.req.Hold = a.hold != NotHeld
	rec := &jobRecord{ID: id, Req: a.req, gone: true, St: jobStatus{
		State: job.Pending, Reason: job.ReasonNone, ArrayTask: -1,
		Partitions: a.partitions, Partition: a.partitions[0], Account: a.account, Groups: a.groups,
		TimeLimit: a.timeLimit, Submit: now, Begin: unix(a.begin), Deadline: unix(a.deadline),
		Nice: a.nice, Hold: a.hold, Requeue: a.requeue, Dep: a.dep,
		Pinned: a.fixPrio, Priority: a.fixPrio,
	}}
	if a.req.KillOnInvalidDep != nil {
		rec.St.KillInvDep, rec.St.NoKillInvDep = *a.req.KillOnInvalidDep, !*a.req.KillOnInvalidDep
	}
	if a.array != nil {
		rec.St.ArrayJobID = id
		rec.St.ArrayPending = a.array.String()
		if i := strings.IndexByte(rec.St.ArrayPending, '%'); i >= 0 {
			rec.St.ArrayPending = rec.St.ArrayPending[:i]
		}
		rec.St.Throttle = a.array.Throttle()
		rec.St.ArrayCount, rec.St.ArrayMin, rec.St.ArrayMax, rec.St.ArrayStep = a.array.Count(), a.array.Min(), a.array.Max(), a.array.Step()
	}
	rec.St.Reason = initialReason(rec)
	if rec.St.Begin == 0 && rec.St.Hold == NotHeld {
		rec.St.Eligible = now
	}
	return rec
}

// initialReason is what squeue shows before the first scheduling pass.
func initialReason(r *jobRecord) job.Reason {
	switch r.St.Hold {
	case HeldUser:
		return job.ReasonJobHeldUser
	case HeldAdmin:
		return job.ReasonJobHeldAdmin
	case HeldDependency:
		return job.ReasonDependency
	case HeldDependencyNever:
		return job.ReasonDependencyNeverSatisfied
	}
	if r.St.Begin != 0 {
		return job.ReasonBeginTime
	}
	return job.ReasonNone
}

// engineJob is r as the scheduler sees it.
func (c *Controller) engineJob(r *jobRecord) *EngineJob {
	ej := &EngineJob{
		ID: r.ID, Req: schedRequest(r.Req), Partitions: r.St.Partitions, Tenant: r.St.Account, User: r.Req.UserName,
		Limit: limitDuration(r.St.TimeLimit), Submit: fromUnix(r.St.Submit), Begin: fromUnix(r.St.Begin),
		Nice: r.St.Nice, Hold: r.St.Hold, Requeue: requeues(r), Throttle: r.St.Throttle, Restarts: r.St.Restarts,
		FixedPriority: r.St.Pinned, SiteFactor: r.St.SiteFactor,
	}
	if r.arrayRecord() {
		ej.ArrayTasks = r.pendingTasks()
	}
	return ej
}

// testOnly answers sbatch and srun --test-only: where and when the job
// would start.
func (c *Controller) testOnly(a *admitted) (any, *api.Error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if aerr := c.checkDependencyTargets(a.dep); aerr != nil {
		return nil, aerr
	}
	if aerr := c.preCheckLive(a); aerr != nil {
		return nil, aerr
	}
	id := c.eng.NextID()
	rec := c.newRecord(id, a)
	// A job that may not start before --begin is placed as if it could
	// start now and reported at its begin time at the earliest, as
	// Slurm's will-run test does: it names the nodes either way.
	ej := c.engineJob(rec)
	begin := ej.Begin
	ej.Begin = time.Time{}
	est, err := c.eng.Estimate(ej, c.now())
	if err != nil {
		return nil, api.Errorf(api.CodeInternal, "estimate: %v", err)
	}
	if !est.Start.IsZero() && begin.After(est.Start) {
		est.Start = begin
	}
	if est.Start.IsZero() {
		return nil, api.Errorf(api.CodeNodeConfigUnavailable, "the job cannot run: %s", est.Reason)
	}
	res := &api.TestOnlyResult{JobID: id, StartTime: unix(est.Start), Partition: est.Partition}
	var names []string
	for _, al := range est.Alloc {
		names = append(names, al.Node)
		res.Processors += al.CPUs
	}
	res.Nodes = hostlist.Compress(names)
	return &api.SubmitResponse{JobID: id, TestOnly: res}, nil
}
