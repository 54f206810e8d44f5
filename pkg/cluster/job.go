package cluster

import (
	"fmt"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

// JobSpec is a submitted job: a job.Request after admission, normalized by
// ShapeOf and given an id by the caller (from NextID).
type JobSpec struct {
	ID         sched.JobID
	Partitions []string // the user's order
	Tenant     string
	User       string
	Shape      sched.Shape
	// GPUsPerTask is --gpus-per-task: the scheduler sees only the
	// total (Shape.GPUs); the start lays the GPUs out with the tasks.
	GPUsPerTask int
	// CPUsPerGPU is --cpus-per-gpu: with --gpus the CPUs follow the GPUs
	// the start lays out.
	CPUsPerGPU int
	// Limit is the requested time limit; 0 takes the partition's
	// DefaultTime (then MaxTime) when the job starts.
	Limit   time.Duration
	Submit  time.Time
	Begin   time.Time // --begin; zero when none
	Nice    int
	QOSPrio int
	Hold    sched.HoldReason
	// FixedPriority is an operator's pinned priority (0: computed).
	FixedPriority int64
	// SiteFactor is an operator's site factor, added to the priority.
	SiteFactor int64
	// Requeue says whether preemption requeues (else cancels) the job.
	Requeue bool
	// ArrayTasks lists the task indices of an array job (--array=0-99);
	// nil for an ordinary job. ArrayThrottle is the %N limit on running
	// tasks, 0 when none.
	ArrayTasks    []int
	ArrayThrottle int
	// Reservation is the admin reservation the job was submitted into
	// (--reservation); empty for none.
	Reservation string
	// Licenses are what the job (each task) needs of the cluster's
	// licenses (licenses.go); nil for none.
	Licenses []sched.License
}

// State is where a job record is in its lifecycle.
type State int

const (
	StatePending State = iota
	StateRunning
)

func (s State) String() string {
	if s == StateRunning {
		return "RUNNING"
	}
	return "PENDING"
}

// jobRec is the cluster's bookkeeping for one job id.
type jobRec struct {
	state State
	idx   int // index in Cluster.pending or Cluster.running
	spec  *JobSpec
	// array is set for an array's pending record and for each of its tasks;
	// task is the task index (-1 for the array's own pending record).
	array *arrayRec
	task  int
	// last is what the latest plan said about the job while it pended.
	last sched.Pending
	// eligible and prio survive a start so Requeue and Forget can restore
	// them.
	eligible time.Time
	prio     int64
	lostRun  time.Duration
	restarts int
}

// arrayRec counts the tasks of one array job.
type arrayRec struct {
	id       sched.JobID
	tasks    []int // pending task indices, ascending
	throttle int   // 0: none
	running  int
	// loose are pending records of requeued or forgotten tasks.
	loose []sched.JobID
}

func (a *arrayRec) room() int {
	if a.throttle <= 0 {
		return -1
	}
	return max(a.throttle-a.running, 0)
}

// JobInfo is a copy of what the cluster holds about one job.
type JobInfo struct {
	ID    sched.JobID
	State State
	Spec  JobSpec
	// Pending is set while the job pends, Running while it runs.
	Pending *sched.PendingJob
	Running *sched.RunningJob
	// ArrayJob and TaskIndex identify an array task (ArrayJob 0 otherwise;
	// TaskIndex -1 for an array's pending record).
	ArrayJob  sched.JobID
	TaskIndex int
	// Last is the latest plan's reason and estimated start for a pending
	// job.
	Last sched.Pending
}

// Job returns a copy of job id's record.
func (c *Cluster) Job(id sched.JobID) (JobInfo, bool) {
	r, ok := c.jobs[id]
	if !ok {
		return JobInfo{}, false
	}
	info := JobInfo{ID: id, State: r.state, Spec: *r.spec, Last: r.last, TaskIndex: -1}
	if r.array != nil {
		info.ArrayJob, info.TaskIndex = r.array.id, r.task
	}
	if r.state == StatePending {
		p := c.pending[r.idx]
		info.Pending = &p
	} else {
		run := c.running[r.idx]
		info.Running = &run
	}
	return info, true
}

// Submit adds a pending job. The id must be new and non-zero, and at least
// one of its partitions must exist.
func (c *Cluster) Submit(spec JobSpec) error {
	if err := c.checkSpec(&spec, false); err != nil {
		return err
	}
	spec.Partitions = slices.Clone(spec.Partitions)
	spec.ArrayTasks = slices.Clone(spec.ArrayTasks)
	slices.Sort(spec.ArrayTasks)
	c.seeID(spec.ID)
	r := &jobRec{spec: &spec, task: -1}
	if spec.Hold != sched.HeldDependency && spec.Hold != sched.HeldDependencyNever {
		r.eligible = later(spec.Submit, spec.Begin)
	}
	if spec.ArrayTasks != nil {
		r.array = &arrayRec{id: spec.ID, tasks: spec.ArrayTasks, throttle: spec.ArrayThrottle}
		c.arrays[spec.ID] = r.array
	}
	c.jobs[spec.ID] = r
	c.pushPending(spec.ID, r)
	return nil
}

// checkSpec validates a spec for Submit (update false: the id must be
// new) or Update.
func (c *Cluster) checkSpec(spec *JobSpec, update bool) error {
	op := "submit"
	if update {
		op = "update"
	}
	switch {
	case spec.ID == 0:
		return fmt.Errorf("%s: job id 0: %w", op, ErrInvalid)
	case !update && (c.jobs[spec.ID] != nil || c.arrays[spec.ID] != nil):
		return fmt.Errorf("%s: job %d already exists: %w", op, spec.ID, ErrInvalid)
	case spec.ArrayTasks != nil && len(spec.ArrayTasks) == 0:
		return fmt.Errorf("%s: job %d: empty array: %w", op, spec.ID, ErrInvalid)
	case spec.Shape.GPUs < 0 || spec.Shape.CPUs < 0 || spec.Shape.Nodes < 0 ||
		spec.Shape.GPUsPerNode < 0 || spec.Shape.CPUsPerNode < 0:
		return fmt.Errorf("%s: job %d: negative resource count: %w", op, spec.ID, ErrInvalid)
	}
	for _, p := range spec.Partitions {
		if _, ok := c.partition(p); ok {
			return nil
		}
	}
	return fmt.Errorf("%s: job %d: no known partition in %v: %w", op, spec.ID, spec.Partitions, ErrInvalid)
}

// pushPending appends r's pending view (rebuilt from its spec and bookkeeping).
func (c *Cluster) pushPending(id sched.JobID, r *jobRec) {
	s := r.spec
	p := sched.PendingJob{
		ID: id, Partitions: s.Partitions, Tenant: s.Tenant, User: s.User,
		Shape: s.Shape, Limit: s.Limit, Submit: s.Submit, Eligible: r.eligible,
		Begin: s.Begin, Nice: s.Nice, QOSPrio: s.QOSPrio, Hold: s.Hold, FixedPriority: s.FixedPriority,
		SiteFactor: s.SiteFactor, PrevPriority: r.prio, LostRun: r.lostRun, Restarts: r.restarts,
		ArrayTasks: 1, ArrayRoom: -1, Reservation: s.Reservation, Licenses: s.Licenses,
	}
	if r.array != nil {
		p.ArrayRoom = r.array.room()
		if r.task < 0 {
			p.ArrayTasks = len(r.array.tasks)
		}
	}
	r.state, r.idx = StatePending, len(c.pending)
	c.pending = append(c.pending, p)
}

// removePending swaps the last pending job into r's slot.
func (c *Cluster) removePending(r *jobRec) {
	last := len(c.pending) - 1
	if r.idx != last {
		moved := c.pending[last]
		c.pending[r.idx] = moved
		c.jobs[moved.ID].idx = r.idx
	}
	c.pending[last] = sched.PendingJob{}
	c.pending = c.pending[:last]
}

// Cancel removes a pending job (for an array, all its pending tasks; running
// tasks are separate jobs). A running job is ended with End once it is dead.
func (c *Cluster) Cancel(id sched.JobID) error {
	r, err := c.lookup(id)
	if err != nil {
		return fmt.Errorf("cancel: %w", err)
	}
	if r.state != StatePending {
		return fmt.Errorf("cancel job %d: running, end it instead: %w", id, ErrJobState)
	}
	c.removePending(r)
	c.dropReservation(id)
	delete(c.jobs, id)
	if r.array != nil {
		c.detachTask(r.array, id, r.task)
	}
	return nil
}

// detachTask forgets a pending record of array a; the array's bookkeeping
// goes once nothing of it pends or runs.
func (c *Cluster) detachTask(a *arrayRec, id sched.JobID, task int) {
	if task < 0 {
		a.tasks = nil
	} else {
		a.loose = slices.DeleteFunc(a.loose, func(x sched.JobID) bool { return x == id })
	}
	c.gcArray(a)
}

func (c *Cluster) gcArray(a *arrayRec) {
	if len(a.tasks) == 0 && len(a.loose) == 0 && a.running == 0 {
		delete(c.arrays, a.id)
	}
}

// Hold keeps a pending job from being considered (scontrol hold/uhold, or a
// dependency not yet satisfied). It drops the job's reservation.
func (c *Cluster) Hold(id sched.JobID, reason sched.HoldReason) error {
	r, err := c.pendingRec(id, "hold")
	if err != nil {
		return err
	}
	if reason == sched.NotHeld {
		return fmt.Errorf("hold job %d: no hold reason: %w", id, ErrInvalid)
	}
	c.pending[r.idx].Hold = reason
	r.spec.Hold = reason
	c.dropReservation(id)
	return nil
}

// Release lets a held job be considered again at now. A job held on a
// dependency becomes eligible (its age starts) at now, or at its begin time
// if that is later; other holds keep the original eligible time.
func (c *Cluster) Release(id sched.JobID, now time.Time) error {
	r, err := c.pendingRec(id, "release")
	if err != nil {
		return err
	}
	p := &c.pending[r.idx]
	if p.Hold == sched.HeldDependency || p.Hold == sched.HeldDependencyNever || p.Eligible.IsZero() {
		p.Eligible = later(now, p.Begin)
		r.eligible = p.Eligible
	}
	p.Hold = sched.NotHeld
	r.spec.Hold = sched.NotHeld
	return nil
}

func (c *Cluster) pendingRec(id sched.JobID, op string) (*jobRec, error) {
	r, err := c.lookup(id)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if r.state != StatePending {
		return nil, fmt.Errorf("%s job %d: not pending: %w", op, id, ErrJobState)
	}
	return r, nil
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
