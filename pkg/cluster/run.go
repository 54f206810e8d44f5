package cluster

import (
	"fmt"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

// assume marks pending job r (id) as started now on alloc and returns the id
// the running job gets (an array task may get a new one) and its index.
func (c *Cluster) assume(id sched.JobID, r *jobRec, st sched.Start, now time.Time) (sched.JobID, int) {
	runID, run := id, r
	if r.array != nil && r.task < 0 {
		runID, run = c.splitTask(id, r)
	} else {
		c.removePending(r)
		if r.array != nil {
			r.array.loose = slices.DeleteFunc(r.array.loose, func(x sched.JobID) bool { return x == id })
		}
	}
	if run.array != nil {
		run.array.running++
		c.refreshArrayRoom(run.array)
	}
	c.take(st.Alloc)
	run.state, run.idx = StateRunning, len(c.running)
	c.running = append(c.running, sched.RunningJob{
		ID: runID, Partition: st.Partition, Tenant: run.spec.Tenant, User: run.spec.User,
		Priority: run.prio, Start: now, Limit: c.limitFor(run.spec, st.Partition),
		Alloc: cloneAlloc(st.Alloc), Requeue: run.spec.Requeue, LostRun: run.lostRun,
		ExclusiveUser: run.spec.Shape.ExclusiveUser, // sched/userexcl.go
	})
	return runID, run.idx
}

// splitTask takes the lowest pending task of array record r. The task gets
// a new id unless it is the last one, which keeps the array's id (Slurm).
func (c *Cluster) splitTask(id sched.JobID, r *jobRec) (sched.JobID, *jobRec) {
	a := r.array
	task := a.tasks[0]
	a.tasks = a.tasks[1:]
	spec := *r.spec
	spec.ArrayTasks = nil
	t := &jobRec{spec: &spec, array: a, task: task, eligible: r.eligible, prio: r.prio,
		lostRun: r.lostRun, restarts: r.restarts}
	if len(a.tasks) == 0 {
		c.removePending(r)
		c.jobs[id] = t
		return id, t
	}
	c.pending[r.idx].ArrayTasks = len(a.tasks)
	tid := c.NextID()
	spec.ID = tid
	c.jobs[tid] = t
	return tid, t
}

// refreshArrayRoom updates ArrayRoom of every pending record of a.
func (c *Cluster) refreshArrayRoom(a *arrayRec) {
	room := a.room()
	if r, ok := c.jobs[a.id]; ok && r.state == StatePending && r.task < 0 {
		c.pending[r.idx].ArrayRoom = room
	}
	for _, id := range a.loose {
		c.pending[c.jobs[id].idx].ArrayRoom = room
	}
}

// limitFor is the job's time limit, or the partition's default, or its max.
func (c *Cluster) limitFor(s *JobSpec, part string) time.Duration {
	if s.Limit > 0 {
		return s.Limit
	}
	if p, ok := c.partition(part); ok {
		if p.DefaultTime > 0 {
			return p.DefaultTime
		}
		return p.MaxTime
	}
	return 0
}

func cloneAlloc(alloc []sched.NodeAlloc) []sched.NodeAlloc {
	out := make([]sched.NodeAlloc, len(alloc))
	for i, a := range alloc {
		a.GPUs = slices.Clone(a.GPUs)
		a.Borrowed = slices.Clone(a.Borrowed)
		out[i] = a
	}
	return out
}

// removeRunning frees r's resources, counts its usage up to when and swaps
// the last running job into its slot. It returns the removed record.
func (c *Cluster) removeRunning(r *jobRec, when time.Time) sched.RunningJob {
	run := c.running[r.idx]
	c.chargeEnded(&run, when)
	c.free(run.Alloc)
	last := len(c.running) - 1
	if r.idx != last {
		moved := c.running[last]
		c.running[r.idx] = moved
		c.jobs[moved.ID].idx = r.idx
	}
	c.running[last] = sched.RunningJob{}
	c.running = c.running[:last]
	if r.array != nil {
		r.array.running--
		c.refreshArrayRoom(r.array)
	}
	return run
}

func (c *Cluster) runningRec(id sched.JobID, op string) (*jobRec, error) {
	r, err := c.lookup(id)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if r.state != StateRunning {
		return nil, fmt.Errorf("%s job %d: not running: %w", op, id, ErrJobState)
	}
	return r, nil
}

// End removes a running job that finished (any end state) at when, freeing
// its resources and counting its usage.
func (c *Cluster) End(id sched.JobID, when time.Time) error {
	r, err := c.runningRec(id, "end")
	if err != nil {
		return err
	}
	c.removeRunning(r, when)
	delete(c.jobs, id)
	if r.array != nil {
		c.gcArray(r.array)
	}
	return nil
}

// Requeue puts a running job (a preemption victim after its grace window,
// or a job whose node failed) back in the queue at when. lostRun is the run
// time it lost (the scheduler compensates it); its restart count grows.
// The job keeps its submit and eligible times and its last priority here:
// a preemption victim is compensated rather than sent to the back of the
// queue (R11). An explicit or node-failure requeue is then given Slurm's
// wait (cred_expire + 1 s, Reason=BeginTime) by the controller through
// the job's begin time (ctld/controller requeue_delay.go).
func (c *Cluster) Requeue(id sched.JobID, when time.Time, lostRun time.Duration) error {
	if lostRun < 0 {
		return fmt.Errorf("requeue job %d: negative lost run time: %w", id, ErrInvalid)
	}
	r, err := c.runningRec(id, "requeue")
	if err != nil {
		return err
	}
	run := c.removeRunning(r, when)
	r.prio = run.Priority
	r.lostRun += lostRun
	r.restarts++
	c.repend(id, r)
	return nil
}

// Forget undoes the start of a job whose launch failed: it pends again as
// if it had never started (no restart counted, no usage charged past when).
func (c *Cluster) Forget(id sched.JobID, when time.Time) error {
	r, err := c.runningRec(id, "forget")
	if err != nil {
		return err
	}
	c.removeRunning(r, when)
	c.repend(id, r)
	return nil
}

func (c *Cluster) repend(id sched.JobID, r *jobRec) {
	c.pushPending(id, r)
	if r.array != nil {
		r.array.loose = append(r.array.loose, id)
		c.pending[r.idx].ArrayRoom = r.array.room()
	}
}
