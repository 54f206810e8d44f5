package cluster

import (
	"fmt"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

// SetNextID raises the id counter so that NextID returns at least next:
// the controller calls it after restoring its job table. It never lowers
// the counter.
func (c *Cluster) SetNextID(next sched.JobID) {
	if next > c.nextID {
		c.nextID = next
	}
}

// PeekNextID returns the id NextID would return, without reserving it.
func (c *Cluster) PeekNextID() sched.JobID { return c.nextID }

// Update replaces the spec of a pending job (scontrol update), keeping what
// the cluster learnt about it: eligible time (unless the begin time moves
// it later), previous priority, lost run time, restarts and cool-down. Its
// reservation is dropped, since the shape may have changed. For an array
// the spec's ArrayTasks become the pending tasks; tasks already started are
// unaffected. A task that pends on its own takes the spec without
// ArrayTasks.
func (c *Cluster) Update(spec JobSpec) error {
	r, err := c.pendingRec(spec.ID, "update")
	if err != nil {
		return err
	}
	if err := c.checkSpec(&spec, true); err != nil {
		return err
	}
	if (r.array != nil && r.task < 0) != (spec.ArrayTasks != nil) {
		return fmt.Errorf("update job %d: cannot turn an array into a job or back: %w", spec.ID, ErrInvalid)
	}
	spec.Partitions = slices.Clone(spec.Partitions)
	spec.ArrayTasks = slices.Clone(spec.ArrayTasks)
	slices.Sort(spec.ArrayTasks)
	old := c.pending[r.idx]
	c.removePending(r)
	c.dropReservation(spec.ID)
	r.spec = &spec
	r.eligible = later(r.eligible, spec.Begin)
	if r.array != nil && r.task < 0 {
		r.array.tasks, r.array.throttle = spec.ArrayTasks, spec.ArrayThrottle
	}
	c.pushPending(spec.ID, r)
	c.pending[r.idx].ReserveAfter = old.ReserveAfter
	if r.array != nil {
		c.refreshArrayRoom(r.array)
	}
	return nil
}

// CancelTasks removes the given task indices from an array's pending
// record (scancel 12_[3-5]); tasks that run or pend on their own are
// separate jobs. The record goes when no task is left.
func (c *Cluster) CancelTasks(id sched.JobID, tasks []int) error {
	r, err := c.pendingRec(id, "cancel tasks")
	if err != nil {
		return err
	}
	if r.array == nil || r.task >= 0 {
		return fmt.Errorf("cancel tasks of job %d: not a pending array: %w", id, ErrJobState)
	}
	a := r.array
	a.tasks = slices.DeleteFunc(a.tasks, func(t int) bool { return slices.Contains(tasks, t) })
	r.spec.ArrayTasks = a.tasks
	if len(a.tasks) == 0 {
		c.removePending(r)
		c.dropReservation(id)
		delete(c.jobs, id)
		c.gcArray(a)
		return nil
	}
	c.pending[r.idx].ArrayTasks = len(a.tasks)
	return nil
}

// Restore puts back a job that was running when the controller stopped:
// it runs from start on alloc in partition. Node states are not checked
// (their daemons may not have registered yet), capacity and GPU indices
// are. An array task is restored as a job of its own (spec without
// ArrayTasks).
func (c *Cluster) Restore(spec JobSpec, start time.Time, partition string, alloc []sched.NodeAlloc) error {
	if spec.ArrayTasks != nil {
		return fmt.Errorf("restore job %d: a running task has no task list: %w", spec.ID, ErrInvalid)
	}
	if err := c.checkAlloc(alloc, true); err != nil {
		return fmt.Errorf("restore job %d: %w", spec.ID, err)
	}
	spec.Hold = sched.NotHeld
	if err := c.Submit(spec); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	r := c.jobs[spec.ID]
	c.assume(spec.ID, r, sched.Start{Job: spec.ID, Partition: partition, Alloc: alloc}, start)
	return nil
}

// RestorePreempting marks a restored job as a preemption victim inside its
// grace window until deadline: the controller stopped after it preempted
// the job and before the job ended. Without the mark the next cycle would
// see a healthy running job and preempt more victims for the same
// beneficiary.
func (c *Cluster) RestorePreempting(id sched.JobID, deadline time.Time) error {
	r, err := c.runningRec(id, "restore preempting")
	if err != nil {
		return err
	}
	run := &c.running[r.idx]
	run.Preempting, run.PreemptDeadline = true, deadline
	return nil
}
