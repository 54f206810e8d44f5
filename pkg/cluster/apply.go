package cluster

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

// ActionKind is what the caller must do for one Action.
type ActionKind int

const (
	// ActLaunch starts Job (already assumed running) on Alloc.
	ActLaunch ActionKind = iota
	// ActPreempt sends the victim Job its checkpoint signal now and kills
	// it at Deadline; then the caller calls Requeue (Mode PreemptRequeue)
	// or End (PreemptCancel).
	ActPreempt
)

func (k ActionKind) String() string {
	if k == ActPreempt {
		return "preempt"
	}
	return "launch"
}

// Action is one thing a plan asks the caller to do, in plan order.
type Action struct {
	Kind ActionKind
	Job  sched.JobID
	// Launch: where, for how long, and for an array task which one (Job is
	// then the task's own id; ArrayJob 0 for an ordinary job).
	Partition string
	Alloc     []sched.NodeAlloc
	Limit     time.Duration
	ArrayJob  sched.JobID
	TaskIndex int
	Reserved  bool
	// Preempt: who benefits, why, and the grace window.
	Beneficiary sched.JobID
	Reason      sched.PreemptReason
	Mode        sched.PreemptMode
	Grace       time.Duration
	Deadline    time.Time
}

// ApplyPlan records what plan decided and returns what the caller must do.
// In order: priorities and pending reasons are stored for the next cycle;
// reservation changes are applied (a drop on timeout or deadlock starts the
// job's reservation cool-down); every start is re-checked against live state
// and assumed (the job runs from plan.Now, its resources are taken); every
// preemption marks its victim as inside its grace window. Entries that no
// longer apply (a job cancelled meanwhile, resources taken) are skipped and
// reported in the error; everything else is applied.
func (c *Cluster) ApplyPlan(plan *sched.Plan) ([]Action, error) {
	var errs []error
	c.applyPriorities(plan)
	for _, rc := range plan.Reservations {
		if err := c.applyReservation(rc, plan.Now); err != nil {
			errs = append(errs, err)
		}
	}
	acts := make([]Action, 0, len(plan.Starts)+len(plan.Preemptions))
	later := planUse(plan.Starts)
	for _, st := range plan.Starts {
		addUse(later, st.Alloc, -1)
		a, err := c.applyStart(st, plan.Now, later)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		acts = append(acts, a)
	}
	for _, p := range plan.Preemptions {
		a, err := c.applyPreemption(p, plan.Now)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		acts = append(acts, a)
	}
	return acts, errors.Join(errs...)
}

func (c *Cluster) applyPriorities(plan *sched.Plan) {
	for _, pc := range plan.Priorities {
		if r, ok := c.jobs[pc.Job]; ok && r.state == StatePending {
			r.prio = pc.New
			c.pending[r.idx].PrevPriority = pc.New
		}
	}
	for _, p := range plan.Pending {
		if r, ok := c.jobs[p.Job]; ok && r.state == StatePending {
			r.last = p
			r.prio = p.Priority
			c.pending[r.idx].PrevPriority = p.Priority
		}
	}
}

func (c *Cluster) applyStart(st sched.Start, now time.Time, later map[string]nodeUse) (Action, error) {
	r, ok := c.jobs[st.Job]
	switch {
	case !ok:
		return Action{}, fmt.Errorf("start job %d: %w", st.Job, ErrUnknownJob)
	case r.state != StatePending:
		return Action{}, fmt.Errorf("start job %d: not pending: %w", st.Job, ErrJobState)
	case c.pending[r.idx].Hold != sched.NotHeld:
		return Action{}, fmt.Errorf("start job %d: held: %w", st.Job, ErrJobState)
	case r.array != nil && r.array.room() == 0:
		return Action{}, fmt.Errorf("start job %d: array throttle reached: %w", st.Job, ErrInvalid)
	}
	if err := c.checkAlloc(st.Alloc, false); err != nil {
		return Action{}, fmt.Errorf("start job %d: %w", st.Job, err)
	}
	st.Alloc = c.settle(r.spec, st.Alloc, later)
	c.dropReservation(st.Job)
	r.last = sched.Pending{}
	id, idx := c.assume(st.Job, r, st, now)
	run := c.running[idx]
	a := Action{Kind: ActLaunch, Job: id, Partition: st.Partition, Alloc: run.Alloc,
		Limit: run.Limit, Reserved: st.Reserved, TaskIndex: -1}
	if rr := c.jobs[id]; rr.array != nil {
		a.ArrayJob, a.TaskIndex = rr.array.id, rr.task
	}
	return a, nil
}

func (c *Cluster) applyPreemption(p sched.Preemption, now time.Time) (Action, error) {
	r, err := c.runningRec(p.Victim, "preempt")
	if err != nil {
		return Action{}, err
	}
	run := &c.running[r.idx]
	if run.Preempting {
		return Action{}, fmt.Errorf("preempt job %d: already preempted: %w", p.Victim, ErrJobState)
	}
	if p.Grace < 0 {
		return Action{}, fmt.Errorf("preempt job %d: negative grace: %w", p.Victim, ErrInvalid)
	}
	run.Preempting = true
	run.PreemptDeadline = now.Add(p.Grace)
	return Action{Kind: ActPreempt, Job: p.Victim, Beneficiary: p.Beneficiary, Reason: p.Reason,
		Mode: p.Mode, Grace: p.Grace, Deadline: run.PreemptDeadline, TaskIndex: -1}, nil
}

// applyReservation stores one reservation change.
func (c *Cluster) applyReservation(rc sched.ReservationChange, now time.Time) error {
	id := rc.Reservation.Job
	if rc.Action == sched.ReserveDrop {
		part := rc.Reservation.Partition
		if i, found := slices.BinarySearchFunc(c.resv, id, cmpResv); found && c.resv[i].Partition != "" {
			part = c.resv[i].Partition
		}
		c.dropReservation(id)
		switch {
		case !rc.ReserveAfter.IsZero():
			c.setCooldown(id, rc.ReserveAfter)
		case rc.Reason == sched.DropTimeout || rc.Reason == sched.DropDeadlock:
			c.setCooldown(id, now.Add(c.cooldownOf(id, part)))
		}
		return nil
	}
	if r, ok := c.jobs[id]; !ok || r.state != StatePending {
		return fmt.Errorf("reserve for job %d: not pending: %w", id, ErrJobState)
	}
	res := rc.Reservation
	res.Alloc = cloneAlloc(res.Alloc)
	i, found := slices.BinarySearchFunc(c.resv, id, cmpResv)
	if found {
		c.resv[i] = res
	} else {
		c.resv = slices.Insert(c.resv, i, res)
	}
	return nil
}

func cmpResv(r sched.Reservation, id sched.JobID) int {
	switch {
	case r.Job < id:
		return -1
	case r.Job > id:
		return 1
	}
	return 0
}

func (c *Cluster) dropReservation(id sched.JobID) {
	if i, found := slices.BinarySearchFunc(c.resv, id, cmpResv); found {
		c.resv = slices.Delete(c.resv, i, i+1)
	}
}

// setCooldown stores the end of a pending job's reservation cool-down.
func (c *Cluster) setCooldown(id sched.JobID, until time.Time) {
	if r, ok := c.jobs[id]; ok && r.state == StatePending {
		c.pending[r.idx].ReserveAfter = until
	}
}

// cooldownOf is the ReservationCooldown of partition part, or when unknown
// the longest of the job's partitions: the cool-down after a drop the plan
// gave no end for.
func (c *Cluster) cooldownOf(id sched.JobID, part string) time.Duration {
	if p, ok := c.partition(part); ok {
		return p.ReservationCooldown
	}
	var cool time.Duration
	if r, ok := c.jobs[id]; ok {
		for _, name := range r.spec.Partitions {
			if p, ok := c.partition(name); ok {
				cool = max(cool, p.ReservationCooldown)
			}
		}
	}
	return cool
}
