package controller

import (
	"slices"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/store"
)

// The helpers here are the only code that changes which records are live
// and how they count; callers hold c.mu.

// weight is how many jobs r counts as against MaxJobCount.
func weight(r *jobRecord) int {
	if r.arrayRecord() && r.pending() {
		return max(len(r.pendingTasks()), 1)
	}
	return 1
}

// addRecord makes r live.
func (c *Controller) addRecord(r *jobRecord) {
	r.gone = false
	c.jobs[r.ID] = r
	if n := len(c.order); n == 0 || c.order[n-1] < r.ID {
		c.order = append(c.order, r.ID)
	} else {
		i, _ := slices.BinarySearch(c.order, r.ID)
		c.order = slices.Insert(c.order, i, r.ID)
	}
	if r.St.ArrayJobID != 0 {
		c.arrays[r.St.ArrayJobID] = append(c.arrays[r.St.ArrayJobID], r.ID)
	}
	c.tasks += weight(r)
	c.nameIndexAdd(r)
	if r.running() {
		c.runningByName[singletonKey(r)]++
		c.runningSet[r.ID] = r
	}
	if r.St.Deadline != 0 {
		c.deadlines[r.ID] = true
	}
	if r.finished() {
		c.endedIDs = append(c.endedIDs, r.ID)
	}
	c.deps.add(r)
}

// removeRecord takes r out of the live table (it stays in accounting); its
// end is remembered for dependents still waiting on it.
func (c *Controller) removeRecord(r *jobRecord) {
	delete(c.jobs, r.ID)
	delete(c.runningSet, r.ID)
	delete(c.deadlines, r.ID)
	c.forgetSteps(r.ID)
	r.gone = true
	c.tasks -= weight(r)
	c.nameIndexRemove(r)
	if r.St.ArrayJobID != 0 {
		ids := slices.DeleteFunc(c.arrays[r.St.ArrayJobID], func(x uint32) bool { return x == r.ID })
		if len(ids) == 0 {
			delete(c.arrays, r.St.ArrayJobID)
		} else {
			c.arrays[r.St.ArrayJobID] = ids
		}
	}
	if len(c.deps.byJob[r.ID]) > 0 || (r.St.ArrayJobID != 0 && len(c.deps.byJob[r.St.ArrayJobID]) > 0) {
		c.deps.ended[r.ID] = endInfo{state: r.St.State, start: r.St.Start, end: r.St.End}
	}
	delete(c.deps.byJob, r.ID)
	k := singletonKey(r)
	c.deps.singleton[k] = slices.DeleteFunc(c.deps.singleton[k], func(x uint32) bool { return x == r.ID })
	if len(c.deps.singleton[k]) == 0 {
		delete(c.deps.singleton, k)
	}
	delete(c.deps.timed, r.ID)
}

// compactOrder drops ids no longer live from c.order.
func (c *Controller) compactOrder() {
	c.order = slices.DeleteFunc(c.order, func(id uint32) bool { return c.jobs[id] == nil })
}

// arrayMembers returns the live record ids of array job id.
func (c *Controller) arrayMembers(id uint32) []uint32 { return c.arrays[id] }

// setArrayPending changes the tasks an array's pending record holds,
// keeping the MaxJobCount tally right.
func (c *Controller) setArrayPending(r *jobRecord, spec string) {
	if !r.gone {
		c.tasks -= weight(r)
		defer func() { c.tasks += weight(r) }()
	}
	r.St.ArrayPending = spec
}

// setState moves r to state st and keeps the running tally (singleton)
// right.
func (c *Controller) setState(r *jobRecord, st job.State) {
	if r.St.State == job.Suspended && st != job.Suspended {
		c.closeSuspension(r, st) // suspend.go
	}
	was := r.running()
	if !r.gone {
		c.tasks -= weight(r)
		defer func() { c.tasks += weight(r) }()
	}
	r.St.State = st
	switch now := r.running(); {
	case r.gone:
	case was && !now:
		k := singletonKey(r)
		if c.runningByName[k]--; c.runningByName[k] <= 0 {
			delete(c.runningByName, k)
		}
		delete(c.runningSet, r.ID)
	case !was && now:
		c.runningByName[singletonKey(r)]++
		c.runningSet[r.ID] = r
	}
	if st.IsTerminal() && !r.gone {
		c.endedIDs = append(c.endedIDs, r.ID)
	}
}

// persistStatus enqueues r's status; the commit follows in order.
func (c *Controller) persistStatus(r *jobRecord) *store.Pending {
	id, blob := r.ID, r.statusBlob()
	return c.store.Enqueue(func(tx *store.Tx) error { return tx.SetJobStatus(id, blob) })
}

// persistJob enqueues r's request and status (a new record).
func (c *Controller) persistJob(r *jobRecord) *store.Pending {
	id, req, blob := r.ID, r.requestBlob(), r.statusBlob()
	r.reqBlob = nil // encoded again when needed; 100,000 jobs need the memory
	return c.store.Enqueue(func(tx *store.Tx) error { return tx.PutJob(id, req, blob) })
}

// persistEnd enqueues r's final status and its accounting record.
func (c *Controller) persistEnd(r *jobRecord) *store.Pending {
	id, blob, row := r.ID, r.statusBlob(), c.acctRow(r)
	return c.store.Enqueue(func(tx *store.Tx) error {
		if err := tx.SetJobStatus(id, blob); err != nil {
			return err
		}
		return tx.PutAcct(row)
	})
}

// finish ends r in a terminal state: a running job's resources go back to
// the scheduler, the end is persisted with its accounting record, and
// dependents are re-checked.
func (c *Controller) finish(r *jobRecord, st job.State, reason job.Reason, exit job.ExitCode) *store.Pending {
	now := c.now()
	hadNodes := r.running() && !r.gone
	c.endSteps(r) // its steps die with it (step.go)
	if r.gone {
		// not live yet (refused while being created): no engine state
	} else if r.running() {
		if err := c.eng.End(r.ID, now); err != nil {
			c.log.WithError(err).WithField("job_id", r.ID).Warn("scheduler did not know the running job")
		}
		c.detach(r)
	} else if r.pending() {
		if err := c.eng.Cancel(r.ID); err != nil {
			c.log.WithError(err).WithField("job_id", r.ID).Warn("scheduler did not know the pending job")
		}
	}
	c.setState(r, st)
	r.St.Reason, r.St.ExitCode, r.St.End = reason, exit, unix(now)
	if hadNodes {
		c.epilogRun(r) // EpilogSlurmctld (ctldscripts.go)
	}
	c.obs.jobEnded(r)
	c.notifyEnd(r)
	c.notices.wake(r.ID) // a waiting salloc or srun hears of the end (notify_wait.go)
	r.St.EndState, r.St.EndReason, r.St.StopBy = "", "", 0
	r.plan, r.resv = PendingInfo{}, nil
	p := c.persistEnd(r)
	c.jobChanged(r)
	c.schedule()
	return p
}

// cancelPendingLocked cancels a pending job. An array's pending record
// keeps its task list, so it shows as "12_[3-9]" CANCELLED.
func (c *Controller) cancelPendingLocked(r *jobRecord, reason job.Reason) *store.Pending {
	return c.finish(r, job.Cancelled, reason, job.ExitCode{})
}
