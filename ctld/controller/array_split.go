package controller

import (
	"slices"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// eachSplitTask adapts an operation on one pending job to the tasks of a
// pending array named alone ("12_3", "12_[3-4]"): as slurmctld does, each
// named task first splits off as its own pending record with a new id,
// then the operation applies to it; the rest of the array is untouched.
// Naming every pending task applies the operation to the array record.
func (c *Controller) eachSplitTask(fn func(b *batch, r *jobRecord) *api.Error) func(b *batch, r *jobRecord, tasks []int) *api.Error {
	return func(b *batch, r *jobRecord, tasks []int) *api.Error {
		if tasks == nil {
			return fn(b, r)
		}
		split, err := c.splitPendingTasks(b, r, tasks)
		if err != nil {
			return err
		}
		var first *api.Error
		for _, tr := range split {
			if err := fn(b, tr); err != nil && first == nil {
				first = err
			}
		}
		return first
	}
}

// splitPendingTasks takes tasks out of array record r's pending set into
// records of their own (new ids, pending, known to the scheduler) and
// returns them; r itself when tasks name all it holds.
func (c *Controller) splitPendingTasks(b *batch, r *jobRecord, tasks []int) ([]*jobRecord, *api.Error) {
	var named, keep []int
	for _, t := range r.pendingTasks() {
		if slices.Contains(tasks, t) {
			named = append(named, t)
		} else {
			keep = append(keep, t)
		}
	}
	switch {
	case len(named) == 0:
		return nil, api.NewError(api.CodeInvalidJobID)
	case len(keep) == 0:
		return []*jobRecord{r}, nil
	}
	if err := c.eng.CancelTasks(r.ID, named); err != nil {
		return nil, api.Errorf(api.CodeInternal, "split tasks of job %d: %v", r.ID, err)
	}
	c.setArrayPending(r, job.FormatRanges(keep))
	b.persist(c.persistStatus(r))
	out := make([]*jobRecord, 0, len(named))
	for _, t := range named {
		tr := c.splitTask(r, t, c.eng.NextID())
		c.addRecord(tr)
		if err := c.eng.Submit(c.engineJob(tr)); err != nil {
			c.log.WithError(err).WithField("job_id", tr.ID).Error("split task: scheduler refused it")
		}
		b.persist(c.persistJob(tr))
		out = append(out, tr)
	}
	return out, nil
}
