package controller

import (
	"slices"
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
// an aftercorr task waits for the task with the same index, or, when the
// target array has no such task, for the whole array, as slurmctld does
// (the peer's --array=1-5 -d aftercorr on a 3-task array runs tasks 4
// and 5 once all three have ended).
func (c *Controller) evalTask(d *job.Dep, task int) (depOutcome, time.Time) {
	recs := c.targets(d.JobID, task)
	if len(recs) == 0 {
		recs = c.targets(d.JobID, -1)
	}
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
	if r.gone || r.St.Dep == nil || !r.arrayRecord() {
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
	if pending := r.pendingTasks(); len(pending) > 1 && len(pending) < correspondAfterTaskCnt {
		// slurmctld splits such an array into a record per task when it
		// builds its queue: the peer's --array=1-9 -d aftercorr:N shows
		// 9 rows, tasks 1-8 with new ids and task 9 with the array's,
		// where --array=1-12 stays one record.
		c.splitCorrTasks(r, pending[:len(pending)-1])
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
	c.splitCorrTasks(r, split)
}

// correspondAfterTaskCnt is slurmctld's CORRESPOND_ARRAY_TASK_CNT: a
// pending aftercorr array with fewer tasks than this splits into a record
// per task.
const correspondAfterTaskCnt = 10

// splitCorrTasks splits tasks of r off into records of their own and
// evaluates their dependencies at once.
func (c *Controller) splitCorrTasks(r *jobRecord, tasks []int) {
	slices.Sort(tasks)
	recs, err := c.splitPendingTasks(&batch{}, r, tasks)
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
