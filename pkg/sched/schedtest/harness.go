package schedtest

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

// Harness is a minimal cluster around the scheduler for tests: it builds
// snapshots, runs cycles, checks every plan with sched.CheckPlan, applies
// it (starts, reservations, preemptions, priorities, cool-downs), lets
// time pass (jobs end after their run time, preempted jobs requeue after
// their grace), and records each plan's text in Log.
type Harness struct {
	Cfg          sched.Config
	Now          time.Time
	Nodes        []sched.Node
	Running      []sched.RunningJob
	Pending      []sched.PendingJob
	Reservations []sched.Reservation
	Usage        []sched.Usage
	// AdminReservations are administrators' reservation windows.
	AdminReservations []sched.AdminReservation
	// Runtime is how long a job really runs (capped at its limit); jobs
	// without an entry run to their limit.
	Runtime map[sched.JobID]time.Duration
	Log     []string

	nextTask sched.JobID
	specs    map[sched.JobID]sched.PendingJob // what each running job asked for
	parent   map[sched.JobID]sched.JobID      // array task -> array job
}

// NewHarness returns an empty cluster at Epoch.
func NewHarness(cfg sched.Config) *Harness {
	return &Harness{Cfg: cfg, Now: Epoch, Runtime: map[sched.JobID]time.Duration{}, nextTask: 100000,
		specs: map[sched.JobID]sched.PendingJob{}, parent: map[sched.JobID]sched.JobID{}}
}

// Snapshot copies the harness state into a Snapshot.
func (h *Harness) Snapshot() *sched.Snapshot {
	return &sched.Snapshot{Now: h.Now, Nodes: slices.Clone(h.Nodes), Running: slices.Clone(h.Running),
		Pending: slices.Clone(h.Pending), Reservations: slices.Clone(h.Reservations), Usage: slices.Clone(h.Usage),
		AdminReservations: slices.Clone(h.AdminReservations)}
}

// Cycle runs one scheduling cycle, checks and applies its plan. The error
// lists invariant violations; the plan is applied regardless.
func (h *Harness) Cycle() (*sched.Plan, error) {
	snap := h.Snapshot()
	plan := sched.New(h.Cfg).Cycle(snap)
	err := sched.CheckPlan(&h.Cfg, snap, plan)
	h.Log = append(h.Log, plan.Text(Epoch))
	h.Apply(plan)
	return plan, err
}

// Apply applies a plan to the harness state.
func (h *Harness) Apply(p *sched.Plan) {
	prio := map[sched.JobID]int64{}
	for _, pc := range p.Priorities {
		prio[pc.Job] = pc.New
	}
	for i := range h.Pending {
		if v, ok := prio[h.Pending[i].ID]; ok {
			h.Pending[i].PrevPriority = v
		}
	}
	for _, st := range p.Starts {
		h.start(st)
	}
	for _, ch := range p.Reservations {
		h.Reservations = slices.DeleteFunc(h.Reservations, func(r sched.Reservation) bool { return r.Job == ch.Reservation.Job })
		if ch.Action != sched.ReserveDrop {
			h.Reservations = append(h.Reservations, ch.Reservation)
		}
		if !ch.ReserveAfter.IsZero() {
			if j := h.pending(ch.Reservation.Job); j != nil {
				j.ReserveAfter = ch.ReserveAfter
			}
		}
	}
	for _, pr := range p.Preemptions {
		if r := h.running(pr.Victim); r != nil {
			r.Preempting, r.PreemptDeadline = true, h.Now.Add(pr.Grace)
			if pr.Mode == sched.PreemptCancel {
				r.Requeue = false
			}
		}
	}
}

func (h *Harness) pending(id sched.JobID) *sched.PendingJob {
	for i := range h.Pending {
		if h.Pending[i].ID == id {
			return &h.Pending[i]
		}
	}
	return nil
}

func (h *Harness) running(id sched.JobID) *sched.RunningJob {
	for i := range h.Running {
		if h.Running[i].ID == id {
			return &h.Running[i]
		}
	}
	return nil
}

// start turns a Start into a running job. An array task other than the
// last gets a new id, as in Slurm.
func (h *Harness) start(st sched.Start) {
	j := h.pending(st.Job)
	if j == nil {
		return
	}
	id := j.ID
	if j.ArrayTasks > 1 {
		id = h.nextTask
		h.nextTask++
		h.parent[id] = j.ID
		h.Runtime[id] = h.Runtime[j.ID]
		j.ArrayTasks--
		if j.ArrayRoom > 0 {
			j.ArrayRoom--
		}
	}
	h.specs[id] = *j
	h.Running = append(h.Running, sched.RunningJob{ID: id, Partition: st.Partition, Tenant: j.Tenant, User: j.User,
		Priority: j.PrevPriority, Start: h.Now, Limit: h.limit(j, st.Partition), Alloc: st.Alloc, Requeue: true})
	if id == j.ID {
		h.Pending = slices.DeleteFunc(h.Pending, func(p sched.PendingJob) bool { return p.ID == id })
	}
}

// limit resolves a job's time limit as the scheduler does.
func (h *Harness) limit(j *sched.PendingJob, part string) time.Duration {
	if j.Limit > 0 {
		return j.Limit
	}
	for _, p := range h.Cfg.Partitions {
		if p.Name == part {
			if p.DefaultTime > 0 {
				return p.DefaultTime
			}
			return p.MaxTime
		}
	}
	return 0
}

// endOf is when a running job leaves: its run time capped at its limit, or
// its grace deadline.
func (h *Harness) endOf(r *sched.RunningJob) time.Time {
	run, ok := h.Runtime[r.ID]
	if !ok || (r.Limit > 0 && run > r.Limit) {
		run = r.Limit
	}
	end := time.Time{}
	if run > 0 {
		end = r.Start.Add(run)
	}
	if r.Preempting && (end.IsZero() || r.PreemptDeadline.Before(end)) {
		end = r.PreemptDeadline
	}
	return end
}

// NextEvent is the earliest time a running job leaves, or zero.
func (h *Harness) NextEvent() time.Time {
	var next time.Time
	for i := range h.Running {
		if e := h.endOf(&h.Running[i]); !e.IsZero() && (next.IsZero() || e.Before(next)) {
			next = e
		}
	}
	return next
}

// Advance lets d pass, ending and requeueing jobs as their times come, and
// returns what happened, one line per event.
func (h *Harness) Advance(d time.Duration) []string {
	target := h.Now.Add(d)
	var events []string
	for {
		next := h.NextEvent()
		if next.IsZero() || next.After(target) {
			h.moveTo(target)
			return events
		}
		h.moveTo(next)
		events = append(events, h.endDue()...)
	}
}

// Step advances to the next event, no later than until; it reports whether
// anything happened.
func (h *Harness) Step(until time.Time) ([]string, bool) {
	next := h.NextEvent()
	if next.IsZero() || next.After(until) {
		return nil, false
	}
	h.moveTo(next)
	return h.endDue(), true
}

// moveTo advances the clock, decaying usage over the interval.
func (h *Harness) moveTo(t time.Time) {
	if t.Before(h.Now) {
		return
	}
	h.Usage = sched.DecayUsage(h.Usage, h.Running, h.Now, t, h.Cfg.Priority.DecayHalfLife)
	h.Now = t
}

// endDue removes the jobs whose end has come.
func (h *Harness) endDue() []string {
	var events []string
	keep := h.Running[:0]
	for _, r := range h.Running {
		end := h.endOf(&r)
		if end.IsZero() || end.After(h.Now) {
			keep = append(keep, r)
			continue
		}
		events = append(events, h.finish(r))
	}
	h.Running = keep
	return events
}

// finish ends a job: requeued if preempted with requeue, else done.
func (h *Harness) finish(r sched.RunningJob) string {
	if p, ok := h.parent[r.ID]; ok {
		if j := h.pending(p); j != nil && j.ArrayRoom >= 0 {
			j.ArrayRoom++
		}
	}
	if !r.Preempting || !h.Now.Equal(r.PreemptDeadline) {
		return fmt.Sprintf("end j%d", r.ID)
	}
	if !r.Requeue {
		return fmt.Sprintf("cancel j%d (preempted)", r.ID)
	}
	spec := h.specs[r.ID]
	spec.ID, spec.ArrayTasks, spec.ArrayRoom = r.ID, 0, -1
	spec.Submit, spec.Eligible, spec.PrevPriority = h.Now, h.Now, 0
	spec.LostRun += h.Now.Sub(r.Start)
	spec.Restarts++
	h.Pending = append(h.Pending, spec)
	return fmt.Sprintf("requeue j%d (lost %s)", r.ID, h.Now.Sub(r.Start))
}

// End removes a running job now (it completed or was cancelled).
func (h *Harness) End(id sched.JobID) bool {
	n := len(h.Running)
	h.moveTo(h.Now)
	h.Running = slices.DeleteFunc(h.Running, func(r sched.RunningJob) bool { return r.ID == id })
	return len(h.Running) < n
}

// Clone returns a deep enough copy of the harness to run independently.
func (h *Harness) Clone() *Harness {
	c := *h
	c.Nodes = slices.Clone(h.Nodes)
	c.Running = slices.Clone(h.Running)
	c.Pending = slices.Clone(h.Pending)
	c.Reservations = slices.Clone(h.Reservations)
	c.Usage = slices.Clone(h.Usage)
	c.AdminReservations = slices.Clone(h.AdminReservations)
	c.Log = slices.Clone(h.Log)
	c.Runtime = maps.Clone(h.Runtime)
	c.specs = maps.Clone(h.specs)
	c.parent = maps.Clone(h.parent)
	return &c
}
