package sched

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// CheckPlan verifies the invariants every Plan must keep, independently of
// how Cycle computed it, so the simulator and the tests can run it after
// every cycle:
//
//   - starts use known, up nodes of their partition, within each node's
//     GPUs, CPUs and memory together with what is running, and no GPU is
//     given twice;
//   - starts keep tenant and user limits (job counts, per-user TRES, tenant
//     caps) and, under PolicyLoam, owned GPUs within the guarantee and
//     borrowed GPUs within the borrow limit and the lendable pool;
//   - no job starts on GPUs a reservation holds unless it is that
//     reservation's job, the reservation is not strict and the job ends
//     by its planned start, the job's partition has a higher tier, or
//     (Loam) the job runs on owned GPUs only and the reservation's job
//     would borrow, or (Loam) the job is of the reservation's queue and
//     comes before its job in scheduling order;
//   - no GPU is held by two reservations;
//   - every pending job that does not start has exactly one Pending entry,
//     with a reason;
//   - victims are running, not already preempted, past PreemptExemptTime,
//     and preemptable by their beneficiary.
//
// It returns all violations joined, or nil.
func CheckPlan(cfg *Config, snap *Snapshot, plan *Plan) error {
	if cfg == nil || snap == nil || plan == nil {
		return errors.New("check plan: nil config, snapshot or plan")
	}
	ck := newChecker(cfg, snap, plan)
	ck.checkStarts()
	ck.checkReservations()
	ck.checkPending()
	ck.checkPreemptions()
	ck.checkAdminWindows() // advresv_check.go
	return errors.Join(ck.errs...)
}

type checker struct {
	cfg     *Config
	snap    *Snapshot
	plan    *Plan
	errs    []error
	nodes   map[string]*Node
	parts   map[string]*Partition
	pending map[JobID]*PendingJob
	running map[JobID]*RunningJob
	gpuUse  map[string]map[int]JobID
	cpuUse  map[string]int
	memUse  map[string]int64
	started map[JobID]int
	members map[string]map[string]bool
}

func (ck *checker) inPartition(p *Partition, node string) bool {
	if ck.members == nil {
		ck.members = map[string]map[string]bool{}
	}
	m := ck.members[p.Name]
	if m == nil {
		m = map[string]bool{}
		for _, n := range expandNames(p.Nodes) {
			m[n] = true
		}
		ck.members[p.Name] = m
	}
	return m[node]
}

func newChecker(cfg *Config, snap *Snapshot, plan *Plan) *checker {
	ck := &checker{cfg: cfg, snap: snap, plan: plan, nodes: map[string]*Node{}, parts: map[string]*Partition{},
		pending: map[JobID]*PendingJob{}, running: map[JobID]*RunningJob{}, gpuUse: map[string]map[int]JobID{},
		cpuUse: map[string]int{}, memUse: map[string]int64{}, started: map[JobID]int{}}
	for i := range snap.Nodes {
		ck.nodes[snap.Nodes[i].Name] = &snap.Nodes[i]
		ck.gpuUse[snap.Nodes[i].Name] = map[int]JobID{}
	}
	for i := range cfg.Partitions {
		ck.parts[cfg.Partitions[i].Name] = &cfg.Partitions[i]
	}
	for i := range snap.Pending {
		ck.pending[snap.Pending[i].ID] = &snap.Pending[i]
	}
	for i := range snap.Running {
		r := &snap.Running[i]
		ck.running[r.ID] = r
		for _, a := range r.Alloc {
			ck.cpuUse[a.Node] += a.CPUs
			ck.memUse[a.Node] += a.MemMB
			if use := ck.gpuUse[a.Node]; use != nil {
				for _, g := range a.GPUs {
					use[g] = r.ID
				}
			}
		}
	}
	return ck
}

func (ck *checker) fail(format string, args ...any) {
	ck.errs = append(ck.errs, fmt.Errorf(format, args...))
}

// limitOf is the job's effective time limit, as Cycle resolves it.
func (ck *checker) limitOf(pj *PendingJob, part string) time.Duration {
	if pj.Limit > 0 {
		return pj.Limit
	}
	if p := ck.parts[part]; p != nil {
		if p.DefaultTime > 0 {
			return p.DefaultTime
		}
		return p.MaxTime
	}
	return 0
}

func (ck *checker) checkStarts() {
	lim := newLimitChecker(ck)
	for _, st := range ck.plan.Starts {
		pj := ck.pending[st.Job]
		if pj == nil {
			ck.fail("start of job %d, which is not pending", st.Job)
			continue
		}
		ck.started[st.Job]++
		if n := max(pj.ArrayTasks, 1); ck.started[st.Job] > n || (pj.ArrayRoom >= 0 && ck.started[st.Job] > pj.ArrayRoom) {
			ck.fail("job %d started %d times, more than its %d tasks (room %d)", st.Job, ck.started[st.Job], n, pj.ArrayRoom)
		}
		if !slices.Contains(pj.Partitions, st.Partition) {
			ck.fail("job %d started in partition %q it did not ask for", st.Job, st.Partition)
		}
		for _, a := range st.Alloc {
			ck.checkAlloc(st, a)
		}
		lim.start(pj, st)
	}
}

// checkAlloc checks one node of a start against node state and capacity.
func (ck *checker) checkAlloc(st Start, a NodeAlloc) {
	n := ck.nodes[a.Node]
	switch {
	case n == nil:
		ck.fail("job %d started on unknown node %s", st.Job, a.Node)
		return
	case n.State != NodeUp:
		ck.fail("job %d started on node %s, which is not up", st.Job, a.Node)
	}
	if p := ck.parts[st.Partition]; p != nil && !ck.inPartition(p, a.Node) {
		ck.fail("job %d started on node %s outside partition %s", st.Job, a.Node, st.Partition)
	}
	if len(a.Borrowed) != 0 && len(a.Borrowed) != len(a.GPUs) {
		ck.fail("job %d on %s: %d borrowed labels for %d GPUs", st.Job, a.Node, len(a.Borrowed), len(a.GPUs))
	}
	use := ck.gpuUse[a.Node]
	for _, g := range a.GPUs {
		if g < 0 || g >= n.GPUs {
			ck.fail("job %d given GPU %d of node %s, which has %d", st.Job, g, a.Node, n.GPUs)
		} else if other, taken := use[g]; taken {
			ck.fail("GPU %d of node %s given to job %d while job %d holds it", g, a.Node, st.Job, other)
		}
		use[g] = st.Job
	}
	ck.cpuUse[a.Node] += a.CPUs
	ck.memUse[a.Node] += a.MemMB
	if ck.cpuUse[a.Node] > n.CPUs || ck.memUse[a.Node] > n.MemMB {
		ck.fail("node %s over-allocated by job %d: %d/%d CPUs, %d/%d MB", a.Node, st.Job,
			ck.cpuUse[a.Node], n.CPUs, ck.memUse[a.Node], n.MemMB)
	}
}

// checkReservations checks that the reservations left after the plan do
// not share GPUs and that starts respected them.
func (ck *checker) checkReservations() {
	final := map[JobID]Reservation{}
	for _, r := range ck.snap.Reservations {
		final[r.Job] = r
	}
	for _, ch := range ck.plan.Reservations {
		if ch.Action == ReserveDrop {
			delete(final, ch.Reservation.Job)
		} else {
			final[ch.Reservation.Job] = ch.Reservation
		}
	}
	held := map[string]map[int]JobID{}
	ids := make([]JobID, 0, len(final))
	for id := range final {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		for _, a := range final[id].Alloc {
			if held[a.Node] == nil {
				held[a.Node] = map[int]JobID{}
			}
			for _, g := range a.GPUs {
				if other, ok := held[a.Node][g]; ok {
					ck.fail("GPU %d of node %s held by reservations of jobs %d and %d", g, a.Node, other, id)
				}
				held[a.Node][g] = id
			}
		}
	}
	for _, st := range ck.plan.Starts {
		ck.checkBackfill(st, final, held)
	}
}

// checkBackfill checks that a start uses held GPUs only where allowed.
func (ck *checker) checkBackfill(st Start, final map[JobID]Reservation, held map[string]map[int]JobID) {
	pj := ck.pending[st.Job]
	if pj == nil {
		return
	}
	end := ck.plan.Now.Add(ck.limitOf(pj, st.Partition))
	unlimited := ck.limitOf(pj, st.Partition) <= 0
	for _, a := range st.Alloc {
		for _, g := range a.GPUs {
			owner, ok := held[a.Node][g]
			if !ok || owner == st.Job {
				continue
			}
			r := final[owner]
			p := ck.parts[r.Partition]
			switch {
			case p != nil && ck.parts[st.Partition] != nil && ck.parts[st.Partition].Tier > p.Tier:
				// a higher tier goes first; the reservation re-plans
			case ck.cfg.Policy == PolicyLoam && st.Partition == r.Partition && ck.before(st.Job, owner):
				// the head of a queue goes before the reservations of
				// lower jobs of its queue (Loam); they re-plan
			case ck.ownedStart(st) && !r.Claimed && ck.resvBorrows(owner):
				// a lender's job on its own guarantee takes back what a
				// borrower's reservation holds (Loam); it re-plans
			case p != nil && p.Strict && ck.cfg.Policy == PolicyLoam:
				ck.fail("job %d started on GPU %d of %s held by strict reservation of job %d", st.Job, g, a.Node, owner)
			case r.PlannedStart.IsZero() || unlimited || end.After(r.PlannedStart):
				ck.fail("job %d (ends %v) started on GPU %d of %s reserved for job %d from %v", st.Job,
					end, g, a.Node, owner, r.PlannedStart)
			}
		}
	}
}

// before reports whether pending job a comes before b in scheduling
// order within a tier: higher priority after the plan, then lower id.
func (ck *checker) before(a, b JobID) bool {
	pa, pb := ck.priorityOf(a), ck.priorityOf(b)
	return pa > pb || (pa == pb && a < b)
}

// priorityOf is a pending job's priority after the plan.
func (ck *checker) priorityOf(id JobID) int64 {
	for _, pc := range ck.plan.Priorities {
		if pc.Job == id {
			return pc.New
		}
	}
	if pj := ck.pending[id]; pj != nil {
		return pj.PrevPriority
	}
	return 0
}

func (ck *checker) checkPending() {
	seen := map[JobID]int{}
	for _, p := range ck.plan.Pending {
		seen[p.Job]++
		if ck.pending[p.Job] == nil {
			ck.fail("pending entry for job %d, which is not pending", p.Job)
		}
		if p.Reason == "" {
			ck.fail("pending job %d has no reason", p.Job)
		}
	}
	for i := range ck.snap.Pending {
		pj := &ck.snap.Pending[i]
		done := ck.started[pj.ID] >= max(pj.ArrayTasks, 1)
		switch {
		case done && seen[pj.ID] > 0:
			ck.fail("job %d started fully but also has a pending entry", pj.ID)
		case !done && seen[pj.ID] != 1:
			ck.fail("job %d has %d pending entries, want 1", pj.ID, seen[pj.ID])
		}
	}
}

func (ck *checker) checkPreemptions() {
	victims := map[JobID]bool{}
	for _, pr := range ck.plan.Preemptions {
		v := ck.running[pr.Victim]
		b := ck.pending[pr.Beneficiary]
		switch {
		case v == nil:
			ck.fail("preemption of job %d, which is not running", pr.Victim)
			continue
		case b == nil:
			ck.fail("preemption of job %d for job %d, which is not pending", pr.Victim, pr.Beneficiary)
			continue
		case v.Preempting || victims[pr.Victim]:
			ck.fail("job %d preempted twice", pr.Victim)
		case ck.cfg.PreemptExemptTime > 0 && ck.plan.Now.Sub(v.Start) < ck.cfg.PreemptExemptTime:
			ck.fail("job %d preempted inside its exempt time", pr.Victim)
		case ck.started[pr.Beneficiary] > 0:
			ck.fail("job %d both started and preempted job %d", pr.Beneficiary, pr.Victim)
		}
		victims[pr.Victim] = true
		if pr.Reason == PreemptUrgent {
			vp, bp := ck.parts[v.Partition], ck.bestPartition(b)
			if vp == nil || bp == nil || vp.Tier >= bp.Tier || vp.PreemptMode == PreemptOff {
				ck.fail("job %d may not preempt job %d of partition %s", pr.Beneficiary, pr.Victim, v.Partition)
			}
		}
	}
}

// bestPartition is the job's highest-tier known partition.
func (ck *checker) bestPartition(pj *PendingJob) *Partition {
	var best *Partition
	for _, name := range pj.Partitions {
		if p := ck.parts[name]; p != nil && (best == nil || p.Tier > best.Tier) {
			best = p
		}
	}
	return best
}

// ownedStart reports whether, under PolicyLoam, a start uses only GPUs
// labelled owned: its tenant's own guarantee (checkLimits verifies the
// labels).
func (ck *checker) ownedStart(st Start) bool {
	if ck.cfg.Policy != PolicyLoam {
		return false
	}
	some := false
	for _, a := range st.Alloc {
		if len(a.Borrowed) != len(a.GPUs) {
			return false
		}
		for _, b := range a.Borrowed {
			if b {
				return false
			}
			some = true
		}
	}
	return some
}

// resvBorrows reports whether the reservation's job, started with what
// its tenant holds after the plan, would exceed the tenant's guarantee.
// Usage only grows during a cycle, so a job that would borrow when it was
// planned still would.
func (ck *checker) resvBorrows(job JobID) bool {
	pj := ck.pending[job]
	if pj == nil {
		return false
	}
	var t *Tenant
	for i := range ck.cfg.Tenants {
		if ck.cfg.Tenants[i].Name == pj.Tenant {
			t = &ck.cfg.Tenants[i]
			break
		}
	}
	if t == nil {
		return false
	}
	used := 0
	for i := range ck.snap.Running {
		if r := &ck.snap.Running[i]; r.Tenant == pj.Tenant {
			for _, a := range r.Alloc {
				used += len(a.GPUs)
			}
		}
	}
	for _, st := range ck.plan.Starts {
		if p := ck.pending[st.Job]; p != nil && p.Tenant == pj.Tenant {
			for _, a := range st.Alloc {
				used += len(a.GPUs)
			}
		}
	}
	g := pj.Shape.GPUs
	if pj.Shape.GPUsPerNode > 0 {
		g = pj.Shape.GPUsPerNode * max(pj.Shape.Nodes, 1)
	}
	return int64(used+g) > max(t.Guarantee.GPU, 0)
}
