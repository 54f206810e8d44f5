package sched

import (
	"slices"
	"time"
)

// Scheduler runs cycles for one Config. Between cycles it keeps only
// scratch memory, cleared or overwritten before use, and what it derived
// from the Config alone (its host lists expanded), never state that
// changes a decision: the same Snapshot always yields the same Plan. A
// Scheduler is not safe for concurrent use; run one per goroutine.
type Scheduler struct {
	cfg     Config
	scratch scratch
}

// scratch is per-cycle working memory reused across cycles, so that a
// cycle over 50,000 jobs does not allocate (and collect) them anew.
type scratch struct {
	jobs, spare   []jobInfo // the jobs in scheduling order; loadJobs' buffer in Snapshot order
	keys, tmpKeys []orderKey
	ids, tmp      []uint64
	area          []uint64 // deferred jobs' sort keys
	dup           []bool
	pos           []int32
	facs          []PriorityFactors
	cands         []cand
	freed         []int
	names         *expandedNames // not scratch: derived from the Config, kept
}

// grow returns s resized to n, reusing its array when large enough; the
// caller overwrites or clears every element.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// New returns a Scheduler for cfg. The Config is copied shallowly; the
// caller must not change it while the Scheduler is in use.
func New(cfg Config) *Scheduler {
	return &Scheduler{cfg: cfg}
}

// Cycle decides one scheduling pass over snap. snap.Now is the only time.
// A nil snapshot yields an empty plan.
func (s *Scheduler) Cycle(snap *Snapshot) *Plan {
	if snap == nil {
		return &Plan{}
	}
	c := &cycle{cfg: &s.cfg, snap: snap, now: snap.Now.UnixNano(), pol: s.cfg.Policy,
		plan: &Plan{Now: snap.Now}, scratch: &s.scratch, headPos: -1}
	if c.pol != PolicyEASY && c.pol != PolicyFCFS {
		c.pol = PolicyLoam
	}
	c.fails.m = map[failKey]tick{}
	c.planFails = map[failKey]bool{}
	c.memMaxCPUs, c.usableMax = map[[2]int64]int{}, map[string]int{}
	c.preemptFails = map[preemptKey]bool{}
	c.victimLists = map[victimKey][]int32{}

	// 1. The cluster: nodes, partitions, running jobs, the free-GPU index.
	c.buildNodes()
	c.loadAdv()
	c.loadRunning()
	c.initUserExcl() // userexcl.go
	c.idx.init(c)
	// 2. Jobs: reasons that rule them out, priorities, scheduling order.
	c.initPriority()
	c.initQuota()
	ids := c.loadJobs()
	c.noteDemand()
	// 3. Reservations carried over: gone, timed out, deadlocked.
	c.loadReservations(ids)
	c.expireReservations()
	if c.pol == PolicyLoam {
		c.analyzeWaits()
		c.breakDeadlocks()
		c.growHolds()
	}
	// 4. Start, backfill, reserve, preempt, in order.
	c.runPass()
	// 5. Reservations nobody re-planned; cycles formed in this pass.
	c.settleReservations()
	c.settleDeadlocks()
	c.advReasons()
	// 6. Estimated starts, then the plan.
	c.estimate()
	c.advEstimates()
	c.assemble()
	return c.plan
}

// expireReservations drops, under Loam, reservations older than their
// queue's ReservationTimeout that are not making progress; the job then
// may not reserve again for the queue's ReservationCooldown (R9). A
// reservation makes progress while it keeps gaining GPUs (or an earlier
// start), or while its planned start is known and has not slipped more
// than a timeout past the earliest start it was promised: it will start,
// by the running jobs' limits, and holding on is what gets it there. One
// that gains nothing for a timeout while it waits on another reservation
// (start unknown) or keeps being pushed back (higher tiers taking its
// GPUs, its nodes going away) is what R9's timeout is for: it would block
// the cluster indefinitely.
func (c *cycle) expireReservations() {
	if c.pol != PolicyLoam {
		return
	}
	for ri, rv := range c.resvs {
		if rv.dead || rv.job == nil {
			continue
		}
		p := c.parts[rv.part].cfg
		if p.ReservationTimeout <= 0 || c.now-rv.created < int64(p.ReservationTimeout) {
			continue
		}
		if rv.ps > 0 && rv.ps <= c.now {
			continue // complete: the job starts in this cycle
		}
		if rv.ps > 0 && rv.promise > 0 && rv.ps <= after(rv.promise, p.ReservationTimeout) {
			continue // on schedule
		}
		if c.now-rv.gained < int64(p.ReservationTimeout) {
			continue // still gaining
		}
		until := c.now + int64(max(p.ReservationCooldown, 0))
		rv.job.coolUntil = until
		c.dropResv(int32(ri), DropTimeout, nil, fromTick(until))
	}
}

// settleReservations drops, under EASY, reservations that were not given
// to their queue's top blocked job in this pass.
func (c *cycle) settleReservations() {
	if c.pol != PolicyEASY {
		return
	}
	for ri, rv := range c.resvs {
		if !rv.dead && !rv.seen {
			c.dropResv(int32(ri), DropDisplaced, nil, time.Time{})
		}
	}
}

// assemble fills the Plan from the working state.
func (c *cycle) assemble() {
	pl := c.plan
	for _, d := range c.drops {
		pl.Reservations = append(pl.Reservations, ReservationChange{Action: ReserveDrop,
			Reservation: d.res, Reason: d.reason, CycleWith: d.cycleWith, ReserveAfter: d.after})
	}
	for ri, rv := range c.resvs {
		if rv.dead {
			continue
		}
		c.noteGain(int32(ri))
		pl.Stats.Reservations++
		out := c.output(rv)
		switch {
		case rv.prev == nil:
			pl.Reservations = append(pl.Reservations, ReservationChange{Action: ReserveCreate, Reservation: out})
		case !sameReservation(rv.prev, &out):
			pl.Reservations = append(pl.Reservations, ReservationChange{Action: ReserveExtend, Reservation: out})
		}
	}
	c.assemblePending()
	c.assemblePriorities()
	pl.Fragmentation = c.fragmentation()
}

func (c *cycle) assemblePending() {
	counts := make([]int, len(c.parts)) // per primary partition
	other := map[string]int{}           // jobs without a known partition
	c.plan.Pending = make([]Pending, 0, len(c.jobs))
	for i := range c.jobs {
		j := &c.jobs[i]
		if j.starts > 0 && j.starts >= max(j.arrayTasks, 1) {
			continue
		}
		part, position := "", 0
		if j.prim >= 0 {
			part = c.parts[j.prim].cfg.Name
			counts[j.prim]++
			position = counts[j.prim]
		} else {
			if len(j.p.Partitions) > 0 {
				part = j.p.Partitions[0]
			}
			other[part]++
			position = other[part]
		}
		r := j.reason
		if r == "" {
			r = ReasonPriority
		}
		c.plan.Pending = append(c.plan.Pending, Pending{Job: j.id, Reason: r, EstStart: fromTick(j.est),
			Position: position, Partition: part, Priority: j.prio, Factors: c.facs[j.idx]})
	}
}

func (c *cycle) assemblePriorities() {
	c.plan.Priorities = make([]PriorityChange, 0, len(c.jobs))
	// In Snapshot order, then stably by id: duplicate ids keep theirs.
	for i, k := range c.scratch.pos[:len(c.jobs)] {
		j := &c.jobs[k]
		if j.prio != j.p.PrevPriority {
			c.plan.Priorities = append(c.plan.Priorities, PriorityChange{Job: j.id, Old: j.p.PrevPriority,
				New: j.prio, Factors: c.facs[i], Fixed: j.p.FixedPriority > 0 && j.prio > 0})
		}
	}
	byID := func(a, b PriorityChange) int { return cmpID(a.Job, b.Job) }
	if !slices.IsSortedFunc(c.plan.Priorities, byID) {
		slices.SortStableFunc(c.plan.Priorities, byID)
	}
}

// noteGain records that a reservation made progress in this cycle: it
// holds more GPUs than it carried in, or starts earlier.
func (c *cycle) noteGain(ri int32) {
	rv := c.resvs[ri]
	if rv.prev == nil {
		rv.gained = c.now
		return
	}
	held, before := 0, 0
	for _, a := range rv.prev.Alloc {
		before += len(a.GPUs)
	}
	for _, ni := range rv.nodes {
		n := &c.nodes[ni]
		for s := n.base; s < n.base+n.gpus; s++ {
			if c.gpuHold[s] == ri+1 {
				held++
			}
		}
	}
	prevStart := toTick(rv.prev.PlannedStart)
	if held > before || (rv.ps > 0 && (prevStart == 0 || rv.ps < prevStart)) {
		rv.gained = c.now
	}
}

// fragmentation is the share of free GPUs on up nodes that sit on nodes
// with some GPU in use, so cannot serve a whole-node request.
func (c *cycle) fragmentation() float64 {
	var free, split int
	for i := range c.nodes {
		n := &c.nodes[i]
		if !n.schedulable() || n.gpus == 0 {
			continue
		}
		f := 0
		for s := n.base; s < n.base+n.gpus; s++ {
			if c.gpuOcc[s] == 0 {
				f++
			}
		}
		free += f
		if f < n.gpus {
			split += f
		}
	}
	if free == 0 {
		return 0
	}
	return float64(split) / float64(free)
}

// sameReservation compares everything a caller stores of a reservation.
func sameReservation(a, b *Reservation) bool {
	return a.Job == b.Job && a.Partition == b.Partition && a.Created.Equal(b.Created) && a.Claimed == b.Claimed &&
		a.Promised.Equal(b.Promised) && a.Progress.Equal(b.Progress) &&
		a.PlannedStart.Equal(b.PlannedStart) && sameAllocs(a.Alloc, b.Alloc) && sameAllocs(a.Awaiting, b.Awaiting)
}

func sameAllocs(a, b []NodeAlloc) bool {
	return slices.EqualFunc(a, b, func(x, y NodeAlloc) bool {
		return x.Node == y.Node && x.CPUs == y.CPUs && x.MemMB == y.MemMB && slices.Equal(x.GPUs, y.GPUs)
	})
}
