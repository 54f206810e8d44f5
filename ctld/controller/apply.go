package controller

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"syscall"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/store"
)

type contextT = context.Context

// applyCycle records what a cycle decided, in order: pending reasons and
// estimates (soft state), reservations, then starts and preemptions, each
// persisted; launches and signals go out only after the commit
// (finishBatch).
func (c *Controller) applyCycle(b *batch, res *CycleResult) {
	for _, err := range res.Skipped {
		c.log.WithError(err).WithField("cycle", c.cycleNo).Debug("plan entry skipped")
	}
	for _, p := range res.Pending {
		if r := c.jobs[p.JobID]; r != nil && r.pending() {
			r.plan = p
			if r.St.Hold != HeldUser && r.St.Hold != HeldAdmin {
				// A job waiting on a dependency has a priority, as
				// in Slurm; only an explicit hold makes it 0.
				r.St.Priority = p.Priority
			}
		}
	}
	for _, p := range res.Priorities {
		if r := c.jobs[p.JobID]; r != nil {
			r.St.Priority = p.New
		}
	}
	c.auditCycle(b, res)
	c.applyReservations(res.Reservations)
	for i := range res.Launches {
		c.applyLaunch(b, &res.Launches[i], res.Now)
	}
	c.noteThrottled(res) // array_throttle.go: after the launches it holds back
	for i := range res.Preempts {
		c.applyPreempt(b, &res.Preempts[i], res.Now)
	}
	c.logReservations(b, res)
	c.sendPreemptNotices()
}

func (c *Controller) applyReservations(list []ReservationInfo) {
	for _, id := range c.resvIDs {
		if r := c.jobs[id]; r != nil {
			r.resv = nil
		}
	}
	c.resvIDs = c.resvIDs[:0]
	for i := range list {
		if r := c.jobs[list[i].JobID]; r != nil {
			r.resv = &list[i]
			c.resvIDs = append(c.resvIDs, r.ID)
			markReserved(r)
		}
	}
}

// applyLaunch makes the started job (splitting an array task off its
// pending record when needed) RUNNING and queues its launch.
func (c *Controller) applyLaunch(b *batch, l *Launch, now time.Time) {
	src := c.launchSource(l)
	if src == nil {
		c.log.WithField("job_id", l.JobID).Error("scheduler started a job the controller does not hold")
		return
	}
	r := src
	var newRec bool
	throttled := throttledTask(src)
	switch {
	case src.arrayRecord() && l.JobID != l.FromID:
		r = c.splitTask(src, l.TaskIndex, l.JobID)
		c.setArrayPending(src, removeTask(src.pendingTasks(), l.TaskIndex))
		src.St.TasksCut = false // a task left it: slurmctld's job_array_split numbers the last one
		b.persist(c.persistStatus(src))
		c.addRecord(r)
		newRec = true
	case src.arrayRecord():
		c.setArrayPending(r, "")
		r.St.ArrayTask = l.TaskIndex
	}
	c.setState(r, c.startState()) // CONFIGURING while PrologSlurmctld runs (ctldscripts.go)
	st := &r.St
	st.Start, st.Partition, st.Alloc, st.BatchHost = unix(now), l.Partition, l.Alloc, c.batchHost(r.Req, l.Alloc) // batch_host.go
	st.Reason, st.Desc, st.Launched = job.ReasonNone, "", false
	st.SuspendTime, st.PreSuspend, st.Suspended = 0, 0, 0 // a new run (suspend.go)
	if throttled && st.Accrue == 0 {
		st.Accrue = st.Eligible // the array accrued from then (convert.go)
	}
	switch {
	case throttled || st.Eligible == 0 && (st.Begin == 0 || st.Begin > st.Start):
		st.Eligible = st.Start
	case st.Eligible == 0:
		// A --begin job, or one a requeue delayed (requeue_delay.go),
		// was eligible from its begin time: the peer shows that, a
		// scheduling pass before the start, as EligibleTime.
		st.Eligible = st.Begin
	}
	if l.Limit > 0 {
		st.TimeLimit = int64(l.Limit / time.Second)
	}
	r.plan, r.resv = PendingInfo{}, nil
	c.pinCPUs(r)
	c.attach(r)
	if newRec {
		id := r.ID
		b.persist(c.persistJob(r))
		b.persist(c.store.Enqueue(func(tx *store.Tx) error { return tx.SetNextJobID(id + 1) }))
	} else {
		b.persist(c.persistStatus(r))
	}
	c.log.WithField("job_id", r.ID).WithField("node", st.BatchHost).WithField("partition", st.Partition).Info("job started")
	c.launchOrProlog(b, r)
	c.jobChanged(r)
	c.notifyBegin(r)
}

// launchSource finds the record a launch starts: the job itself, or for a
// new array task the array's pending record.
func (c *Controller) launchSource(l *Launch) *jobRecord {
	if l.FromID != 0 {
		return c.jobs[l.FromID]
	}
	if r := c.jobs[l.JobID]; r != nil {
		l.FromID = l.JobID
		return r
	}
	if l.ArrayJobID != 0 {
		l.FromID = l.ArrayJobID
		return c.jobs[l.ArrayJobID]
	}
	return nil
}

func removeTask(tasks []int, t int) string {
	return job.FormatRanges(slices.DeleteFunc(slices.Clone(tasks), func(x int) bool { return x == t }))
}

// applyPreempt starts the graceful stop of a victim: its checkpoint
// signal now, SIGKILL after the grace window, then requeue or cancel.
func (c *Controller) applyPreempt(b *batch, p *Preempt, now time.Time) {
	r := c.jobs[p.JobID]
	if r == nil || !r.running() || r.St.EndState != "" {
		return
	}
	r.St.Preempt = unix(now)
	endReason := c.notePreempt(r, p)
	end := job.Preempted
	if p.Requeue {
		end = job.Requeued
	}
	id, at, why := r.ID, unix(now), fmt.Appendf(nil, `{"beneficiary":%d,"reason":%q}`, p.Beneficiary, p.Reason)
	b.persist(c.store.Enqueue(func(tx *store.Tx) error { return tx.AddJobEvent(id, at, "preempt", why) }))
	c.log.WithField("job_id", r.ID).WithField("beneficiary", p.Beneficiary).WithField("reason", p.Reason).Info("preempting job")
	c.stopRunning(b, r, end, endReason, p.Grace)
}

// checkpointSignal is the signal a preemption victim gets first: its own
// --signal, else its partition's CheckpointSignal, else SIGTERM.
func (c *Controller) checkpointSignal(r *jobRecord) int {
	if r.Req.Signal != nil && r.Req.Signal.Number > 0 {
		return r.Req.Signal.Number
	}
	if p, ok := c.confNow().parts[r.St.Partition]; ok && p.CheckpointSignal != "" {
		if n := slurmconf.SignalNumber(p.CheckpointSignal); n > 0 {
			return n
		}
	}
	return int(syscall.SIGTERM)
}

// queueLaunch adds the launch of r on each of its nodes to the batch: the
// batch node runs the script, the others set up their part. A batch node
// that cannot be reached, or refuses, is handled by launchFailed.
func (c *Controller) queueLaunch(b *batch, r *jobRecord) {
	for i, a := range r.St.Alloc {
		n := c.nodes[a.Node]
		req := c.launchRequest(r, i)
		addr, node := "", a.Node
		if n != nil {
			addr = n.addr
		}
		b.sends = append(b.sends, func() {
			if addr == "" {
				c.launchFailed(req.JobID, node, api.Errorf(api.CodeCommunication, "node %s has no registered address", node))
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := c.noded.Launch(ctx, addr, req); err != nil {
				c.launchFailed(req.JobID, node, err)
			}
		})
	}
}

// launchFailed handles a launch a node daemon did not take. When the node
// could not be reached, the job is forgotten (it pends again) and the node
// goes down; when the daemon refused the job, the job fails as Slurm fails
// it (JobLaunchFailure).
func (c *Controller) launchFailed(id uint32, node string, err error) {
	var b batch
	c.mu.Lock()
	r := c.jobs[id]
	if r == nil || !r.running() || r.St.Launched {
		c.mu.Unlock()
		return
	}
	log := c.log.WithError(err).WithField("job_id", id).WithField("node", node)
	var ae *api.Error
	unreachable := !errors.As(err, &ae) || ae.Code == api.CodeCommunication
	if unreachable {
		log.Warn("launch failed: node unreachable, job requeued to pending")
		c.forgetLocked(&b, r)
		if n := c.nodes[node]; n != nil && !n.notResponding {
			c.nodeNotResponding(&b, n, c.now())
		}
	} else {
		log.Warn("launch refused: job failed")
		c.cleanupOtherNodes(&b, r)
		r.St.Desc = ae.Error()
		b.persist(c.finish(r, job.Failed, job.ReasonJobLaunchFailure, job.ExitCode{Status: 1}))
	}
	c.mu.Unlock()
	c.finishBatch(&b)
}

// forgetLocked undoes a start that never happened.
func (c *Controller) forgetLocked(b *batch, r *jobRecord) {
	if err := c.eng.Forget(r.ID, c.now()); err != nil {
		c.log.WithError(err).WithField("job_id", r.ID).Warn("forget: scheduler did not know the job")
	}
	c.cleanupOtherNodes(b, r)
	c.detach(r)
	c.setState(r, job.Pending)
	r.St.Start, r.St.Alloc, r.St.BatchHost, r.St.Reason = 0, nil, "", job.ReasonNone
	b.persist(c.persistStatus(r))
	c.schedule()
}

// sendQuiet sends one best-effort message to a node daemon.
func (c *Controller) sendQuiet(t nodeTarget, send func(ctx contextT) error) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := send(ctx); err != nil {
		c.log.WithError(err).WithField("node", t.node).Debug("message to node daemon failed")
	}
}
