package controller

import (
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// depIndex finds the pending jobs to re-check when a job changes: by the
// job ids (and array ids) they depend on, and by user and name for
// singleton.
type depIndex struct {
	byJob     map[uint32][]uint32
	singleton map[string][]uint32
	// ended remembers how jobs that left the live table ended, for the
	// dependents that still wait on them.
	ended map[uint32]endInfo
	// timed are jobs whose dependency holds only after a "+minutes" delay.
	timed map[uint32]bool
}

type endInfo struct {
	state      job.State
	start, end int64
}

func newDepIndex() depIndex {
	return depIndex{byJob: map[uint32][]uint32{}, singleton: map[string][]uint32{},
		ended: map[uint32]endInfo{}, timed: map[uint32]bool{}}
}

func singletonKey(r *jobRecord) string { return r.Req.UserName + "\x00" + r.Req.Name }

// add indexes r's dependency.
func (d *depIndex) add(r *jobRecord) {
	if r.St.Dep == nil {
		return
	}
	for _, dep := range r.St.Dep.Deps {
		if dep.Type == job.Singleton {
			k := singletonKey(r)
			if !slices.Contains(d.singleton[k], r.ID) {
				d.singleton[k] = append(d.singleton[k], r.ID)
			}
			continue
		}
		if !slices.Contains(d.byJob[dep.JobID], r.ID) {
			d.byJob[dep.JobID] = append(d.byJob[dep.JobID], r.ID)
		}
	}
}

// dependents returns the jobs that may change when r changes.
func (d *depIndex) dependents(r *jobRecord) []uint32 {
	out := slices.Clone(d.byJob[r.ID])
	if r.St.ArrayJobID != 0 && r.St.ArrayJobID != r.ID {
		out = append(out, d.byJob[r.St.ArrayJobID]...)
	}
	return append(out, d.singleton[singletonKey(r)]...)
}

// checkDependencyTargets refuses a dependency on a job that does not exist
// (live, or ended and in accounting). Slurm silently drops an unknown
// numeric id; Loam refuses it, naming the id.
func (c *Controller) checkDependencyTargets(dep *job.Dependency) *api.Error {
	if dep == nil {
		return nil
	}
	c.markArrayTargets(dep) // deps_corr.go
	for _, d := range dep.Deps {
		if d.Type == job.Singleton || c.jobKnown(d.JobID, d.Task) {
			continue
		}
		if d.Task >= 0 && c.jobKnown(d.JobID, job.NoTask) {
			// The array exists, the task does not: name the task.
			return api.Errorf(api.CodeDependency, "job %d_%d does not exist", d.JobID, d.Task)
		}
		return api.Errorf(api.CodeDependency, "job %d does not exist", d.JobID)
	}
	return nil
}

// jobKnown reports whether id (task, if >= 0) names a live or ended job.
func (c *Controller) jobKnown(id uint32, task int) bool {
	if len(c.targets(id, task)) > 0 {
		return true
	}
	if _, ok := c.deps.ended[id]; ok {
		return true
	}
	if st, ok := c.lookupEnded(id); ok {
		c.deps.ended[id] = st
		return true
	}
	return false
}

// targets returns the live records a dependency on id (task) waits for: the
// job itself or, for an array job, every record of the array.
func (c *Controller) targets(id uint32, task int) []*jobRecord {
	var out []*jobRecord
	if r, ok := c.jobs[id]; ok && r.St.ArrayJobID == 0 {
		return []*jobRecord{r}
	}
	for _, tid := range c.arrayMembers(id) {
		r := c.jobs[tid]
		if r == nil {
			continue
		}
		if task >= 0 && !(r.St.ArrayTask == task || (r.arrayRecord() && slices.Contains(r.pendingTasks(), task))) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// depOutcome is how far one condition has come.
type depOutcome int

const (
	depWaiting depOutcome = iota
	depMet
	depNever
)

// evalDependency re-checks r's dependency at now and sets its dependency
// hold. It reports whether anything changed. A job under an explicit hold
// is left alone, as slurmctld's scheduler passes leave it: its conditions
// keep the state they had ("afterok:5(unfulfilled)" even after job 5
// failed) until it is released. (slurmctld's background pass, about once
// a minute, does test held jobs; Loam does not follow that.)
func (c *Controller) evalDependency(r *jobRecord) bool {
	if r.St.Dep == nil || !r.pending() || explicitHold(r) {
		return false
	}
	c.splitCorr(r) // deps_corr.go
	delete(c.deps.timed, r.ID)
	outcomes, changed := c.evalConds(r)
	hold := combine(outcomes, r.St.Dep.Any)
	if hold == NotHeld {
		// Met: slurmctld clears the whole list, so that scontrol shows
		// Dependency=(null) even when one condition of a "?" list failed.
		for i := range r.St.Dep.Deps {
			if d := &r.St.Dep.Deps[i]; d.State != job.DepFulfilled {
				d.State, changed = job.DepFulfilled, true
			}
		}
	}
	return c.setDepHold(r, hold) || changed
}

// depOutcomeOf is the outcome a condition's recorded state stands for.
var depOutcomeOf = map[job.DepState]depOutcome{job.DepFulfilled: depMet, job.DepFailed: depNever}

// evalConds evaluates r's conditions one by one and records their states.
// A condition fulfilled or failed keeps that state for good, as in
// slurmctld, which drops the one and never re-tests the other: even when
// its target is requeued, or when the user wrote "(failed)".
func (c *Controller) evalConds(r *jobRecord) ([]depOutcome, bool) {
	now := c.now()
	outcomes := make([]depOutcome, len(r.St.Dep.Deps))
	changed := false
	for i := range r.St.Dep.Deps {
		d := &r.St.Dep.Deps[i]
		if o, ok := depOutcomeOf[d.State]; ok {
			outcomes[i] = o
			continue
		}
		o, at := c.evalOne(r, d)
		// Only "after" waits out its "+min"; slurmctld keeps but ignores
		// the delay of the other types.
		if o == depMet && d.Type == job.After && d.Minutes > 0 && at.Add(time.Duration(d.Minutes)*time.Minute).After(now) {
			o = depWaiting
			c.deps.timed[r.ID] = true
		}
		outcomes[i] = o
		st := map[depOutcome]job.DepState{depWaiting: job.DepUnfulfilled, depMet: job.DepFulfilled, depNever: job.DepFailed}[o]
		if d.State != st {
			d.State, changed = st, true
		}
	}
	return outcomes, changed
}

// combine folds the conditions: all must hold (",") or one must ("?").
func combine(outs []depOutcome, anyOf bool) Hold {
	met, never := 0, 0
	for _, o := range outs {
		switch o {
		case depMet:
			met++
		case depNever:
			never++
		}
	}
	switch {
	case anyOf && met > 0, !anyOf && met == len(outs):
		return NotHeld
	case anyOf && never == len(outs), !anyOf && never > 0:
		return HeldDependencyNever
	}
	return HeldDependency
}

// setDepHold moves r between dependency holds and none; an explicit user
// or admin hold stays in front.
func (c *Controller) setDepHold(r *jobRecord, h Hold) bool {
	if r.St.Hold == HeldUser || r.St.Hold == HeldAdmin || r.St.Hold == h {
		return false
	}
	if h == HeldDependencyNever && c.killsInvalid(r) { // deps_update.go
		c.cancelPendingLocked(r, job.ReasonDependencyNeverSatisfied)
		// Never eligible: slurmctld shows EligibleTime and AccrueTime
		// Unknown for a job its kill_invalid_depend cancelled, where a
		// pending job cancelled otherwise is eligible from its end.
		r.St.Eligible = 0
		return true
	}
	r.St.Hold = h
	r.St.Reason = initialReason(r)
	r.plan = PendingInfo{}
	if r.gone {
		return true // not live yet: createJob submits with this hold
	}
	if h == NotHeld {
		c.eng.Release(r.ID, c.now())
		if r.St.Eligible == 0 {
			r.St.Eligible = unix(c.now())
		}
	} else {
		c.eng.Hold(r.ID, h)
	}
	return true
}

// evalOne evaluates one condition of r and when it became true.
func (c *Controller) evalOne(r *jobRecord, d *job.Dep) (depOutcome, time.Time) {
	if d.Type == job.Singleton {
		return c.evalSingleton(r), time.Time{}
	}
	if d.Type == job.AfterCorr && d.Task < 0 && (r.taskID() != nil || r.arrayRecord()) {
		return c.evalCorr(r, d) // deps_corr.go
	}
	recs := c.targets(d.JobID, d.Task)
	if len(recs) == 0 {
		if e, ok := c.deps.ended[d.JobID]; ok {
			return outcome(d.Type, e.state, e.start, e.end)
		}
		return depMet, time.Time{} // gone without a trace: as Slurm, drop it
	}
	return evalRecords(d, recs)
}

// evalRecords evaluates d against the live records it waits for.
func evalRecords(d *job.Dep, recs []*jobRecord) (depOutcome, time.Time) {
	if o, at, ok := wholeArrayOutcome(d, recs); ok { // deps_array.go
		return o, at
	}
	result, last := depMet, time.Time{}
	for _, t := range recs {
		o, at := outcome(d.Type, t.St.State, t.St.Start, t.St.End)
		if t.arrayRecord() {
			o = depWaiting // tasks not yet started
		}
		switch {
		case o == depNever:
			return depNever, at
		case o == depWaiting:
			result = depWaiting
		case at.After(last):
			last = at
		}
	}
	return result, last
}

// outcome evaluates one dependency type against one job's state.
func outcome(t job.DepType, st job.State, start, end int64) (depOutcome, time.Time) {
	done := st.IsTerminal()
	switch t {
	case job.After:
		// "+min" counts from the start, or from the end of a job
		// cancelled before it started.
		if start != 0 {
			return depMet, fromUnix(start)
		}
		if done {
			return depMet, fromUnix(end)
		}
	case job.AfterAny, job.AfterBurstBuffer:
		if done {
			return depMet, fromUnix(end)
		}
	case job.AfterOK, job.AfterCorr:
		if done && st == job.Completed {
			return depMet, fromUnix(end)
		}
		if done {
			return depNever, fromUnix(end)
		}
	case job.AfterNotOK:
		if done && st != job.Completed {
			return depMet, fromUnix(end)
		}
		if done {
			return depNever, fromUnix(end)
		}
	}
	return depWaiting, time.Time{}
}

// jobChanged re-checks the jobs that depend on r after r changed state.
func (c *Controller) jobChanged(r *jobRecord) {
	for _, id := range c.deps.dependents(r) {
		if d := c.jobs[id]; d != nil && d.pending() && c.evalDependency(d) {
			c.persistStatus(d)
		}
	}
}

// recheckTimed re-checks dependencies waiting out a "+minutes" delay.
func (c *Controller) recheckTimed() {
	for id := range c.deps.timed {
		if d := c.jobs[id]; d != nil && c.evalDependency(d) {
			c.persistStatus(d)
		}
	}
}
