package controller

import (
	"time"

	"github.com/loamhpc/loam/pkg/job"
)

// markArrayTargets writes a plain id that names an array job as every
// task of it ("afterok:12" is shown "afterok:12_*"), as slurmctld records
// such a dependency.
func (c *Controller) markArrayTargets(dep *job.Dependency) {
	for i := range dep.Deps {
		d := &dep.Deps[i]
		if d.Type == job.Singleton || d.Task != job.NoTask {
			continue
		}
		if r, ok := c.jobs[d.JobID]; ok && r.St.ArrayJobID == 0 {
			continue // a plain job
		}
		if len(c.arrayMembers(d.JobID)) > 0 {
			d.Task = job.AllTasks
		}
	}
}

// evalCorr evaluates an aftercorr condition of r task by task: r's own
// task, or every task its array record holds (splitCorr has left them
// with one outcome).
func (c *Controller) evalCorr(r *jobRecord, d *job.Dep) (depOutcome, time.Time) {
	if t := r.taskID(); t != nil {
		return c.evalTask(d, *t)
	}
	result, last := depMet, time.Time{}
	for _, t := range r.pendingTasks() {
		o, at := c.evalTask(d, t)
		result = worse(result, o)
		if at.After(last) {
			last = at
		}
	}
	return result, last
}

// evalTask evaluates condition d against task of its target array only:
// an aftercorr task waits for the task with the same index.
func (c *Controller) evalTask(d *job.Dep, task int) (depOutcome, time.Time) {
	recs := c.targets(d.JobID, task)
	if len(recs) == 0 {
		if e, ok := c.deps.ended[d.JobID]; ok {
			return outcome(d.Type, e.state, e.start, e.end)
		}
		return depMet, time.Time{} // gone without a trace: as Slurm, drop it
	}
	return evalRecords(d, recs)
}

// splitCorr lets each task of a pending array that waits on aftercorr go
// its own way, as Slurm's do: when the corresponding tasks have ended
// differently (or some have and some have not), the tasks that can start
// and those that never will split off as their own pending records, and r
// keeps the ones still waiting (or, when none wait, the ones that can
// start). The split records are evaluated at once.
func (c *Controller) splitCorr(r *jobRecord) {
	if r.gone || !r.arrayRecord() {
		return
	}
	var corr []*job.Dep
	for i := range r.St.Dep.Deps {
		if r.St.Dep.Deps[i].Type == job.AfterCorr {
			corr = append(corr, &r.St.Dep.Deps[i])
		}
	}
	if len(corr) == 0 {
		return
	}
	groups := map[depOutcome][]int{}
	for _, t := range r.pendingTasks() {
		worst := depMet
		for _, d := range corr {
			o, _ := c.evalTask(d, t)
			worst = worse(worst, o)
		}
		groups[worst] = append(groups[worst], t)
	}
	if len(groups) < 2 {
		return
	}
	keep := depWaiting
	if len(groups[keep]) == 0 {
		keep = depMet
	}
	var split []int
	for o, ts := range groups {
		if o != keep {
			split = append(split, ts...)
		}
	}
	recs, err := c.splitPendingTasks(&batch{}, r, split)
	if err != nil {
		c.log.WithField("job_id", r.ID).WithField("error", err.Error()).Warn("aftercorr: split tasks")
		return
	}
	for _, tr := range recs {
		c.evalDependency(tr)
		c.persistStatus(tr)
	}
}

// worse is the outcome that holds a task back more: never, then waiting,
// then met.
func worse(a, b depOutcome) depOutcome {
	rank := map[depOutcome]int{depMet: 0, depWaiting: 1, depNever: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}
