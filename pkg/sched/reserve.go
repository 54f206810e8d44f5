package sched

import (
	"slices"
	"time"
)

// resv is a reservation while the cycle runs. It holds GPU slots
// (cycle.gpuHold) that were free when taken, and registers its per-node CPU
// and memory needs on every node it plans to use (nodeInfo.holders); jobs
// that would still run at its planned start may not take either.
type resv struct {
	job     *jobInfo // nil when its job left the queue
	id      JobID
	part    int32
	created tick
	ps      tick // planned start; 0 while unknown
	promise tick // earliest planned start it has had; 0 none yet
	gained  tick // last time it gained GPUs or an earlier start
	limit   time.Duration
	strict  bool
	tier    int     // its partition's PriorityTier
	nodes   []int32 // planned nodes, in rank order
	need    []need  // per planned node
	await   []NodeAlloc
	waits   []int32 // reservations whose held GPUs it needs
	prev    *Reservation
	claimed bool // its job preempted for it (Reservation.Claimed)
	borrows bool // its job would run on borrowed quota (Loam)
	dead    bool
	seen    bool // re-planned, kept or started in this cycle
}

// need is what a reservation's job needs on one planned node.
type need struct {
	g, c int
	m    int64
}

// permits reports whether a job of a partition with PriorityTier tier
// that ends at end may use this reservation's held resources: a job of a
// higher tier always may (tiers are scheduled first, as in Slurm; the
// reservation re-plans around it), any other only if the reservation is
// not strict and has a known planned start no earlier than that end.
func (r *resv) permits(end tick, tier int) bool {
	return !r.dead && (tier > r.tier || (!r.strict && r.ps > 0 && end <= r.ps))
}

func (c *cycle) anyPermits(end tick, tier int) bool {
	return end <= c.maxPermit || tier > c.minResvTier || (c.lender && c.anyBorrows) || c.headPos >= 0
}

// mayUse reports whether the job being placed may use reservation r's
// held resources: r permits it, or the job is a patient lender (see
// lenderPatience) and r's job would run on borrowed quota.
func (c *cycle) mayUse(r *resv, end tick, tier int) bool {
	return r.permits(end, tier) || (c.lender && r.lendable()) || c.heads(r)
}

// heads reports whether the job being placed is a multi-node job that
// heads its queue in this pass and r the reservation of a lower job of
// that queue that has waited less, which it may take (Loam); r re-plans.
// Reservations are sticky: carried ones take what frees on their nodes
// before the pass (growHolds), so without this a younger job of lower
// priority that happened to reserve first keeps, cycle after cycle, what
// the first job of the queue needs; a gang that aging put first (R3)
// then gathers its nodes only as fast as the younger ones leave them, and
// can wait days. Only gangs: a single-node job needs one node, which its
// own reservation gets as soon as any frees. Only gangs never requeued
// (tryStart): a requeued job's wait counts its run time. Only from
// younger jobs, so two old jobs never take from each other; never from a
// reservation its job preempted for, nor a strict one.
func (c *cycle) heads(r *resv) bool {
	return c.headPos >= 0 && !r.dead && r.job != nil && r.job.pos > c.headPos && r.part == c.headPart &&
		!r.claimed && !r.strict && r.job.waited < c.headWaited
}

// lendable reports whether a patient lender may take what r holds: r's
// job would run on borrowed quota. A reservation whose job preempted for
// it (a reclaim, or an urgent job) is never taken: its job reclaims its
// own guarantee, which its claim already counts, or outranks the lender.
func (r *resv) lendable() bool { return r.borrows && !r.dead && !r.claimed }

// lenderPatience is how long, under Loam, a job that fits its tenant's
// unused guarantee waits before it may take GPUs held for another
// tenant's job that would run on borrowed quota. Borrowed quota is the
// lender's first (R7): reclaim takes it back from running borrowers, and
// this takes it back from a borrower's reservation when no running job
// can give it (all are exempt, or it is all held). The reservation
// re-plans around the lender, as around a higher tier. The patience keeps
// lenders' jobs that the cluster serves anyway within minutes from
// pushing big borrowers' reservations back.
const lenderPatience = 5 * time.Minute

func (c *cycle) recomputePermit() {
	c.maxPermit = 0
	c.minResvTier = 1 << 30
	c.anyBorrows = false
	for _, r := range c.resvs {
		if r.dead {
			continue
		}
		c.anyBorrows = c.anyBorrows || r.lendable()
		c.minResvTier = min(c.minResvTier, r.tier)
		if !r.strict && r.ps > 0 {
			c.maxPermit = max(c.maxPermit, r.ps)
		}
	}
}

// resvPlan is a planned allocation for a reservation.
type resvPlan struct {
	ps      tick
	nodes   []int32
	times   []tick
	waits   []int32
	unknown bool // relies on another reservation finishing at an unknown time
}

// readyAt is the earliest time node ni can give (g, cpus, mem) to the
// reservation own, by the running jobs' time limits. GPUs held by other
// reservations are unusable, unless others is set: then they count as
// freeing when that reservation's job would end, and the holders whose
// GPUs are needed are added to waits.
func (c *cycle) readyAt(ni int32, nd need, excl bool, who planner, others bool, waits *[]int32) (tick, bool) {
	n := &c.nodes[ni]
	if excl {
		nd = need{n.gpus, n.cpus, n.mem}
	}
	ready := c.now
	if nd.g > 0 {
		t, ok := c.gpusReady(n, nd.g, who, others, waits)
		if !ok {
			return never, false
		}
		ready = max(ready, t)
	}
	tc, tm := c.cpuMemReady(n, nd, excl, who, others)
	ready = max(ready, tc, tm)
	return ready, ready != never
}

// gpusReady is when g GPU slots of n are free for own: the g-th smallest
// slot release time (an insertion sort: nodes have few GPUs).
func (c *cycle) gpusReady(n *nodeInfo, g int, who planner, others bool, waits *[]int32) (tick, bool) {
	var buf [16]slotTime
	times := buf[:0]
	for s := n.base; s < n.base+n.gpus; s++ {
		t, h := c.slotReady(s, who, others)
		if t == never {
			continue
		}
		st := slotTime{t, h}
		times = append(times, st)
		for k := len(times) - 1; k > 0 && times[k-1].t > st.t; k-- {
			times[k], times[k-1] = times[k-1], times[k]
		}
	}
	if len(times) < g {
		return never, false
	}
	if waits != nil {
		for _, st := range times[:g] {
			if st.holder >= 0 && !slices.Contains(*waits, st.holder) {
				*waits = append(*waits, st.holder)
			}
		}
	}
	return times[g-1].t, true
}

type slotTime struct {
	t      tick
	holder int32 // another reservation the slot waits for, -1 none
}

// planner is the reservation being planned: its index (-1 when new) and
// its partition's tier. Holds of lower tiers do not stop it.
type planner struct {
	own  int32
	tier int
}

func (c *cycle) plannerOf(j *jobInfo, own int32) planner {
	return planner{own: own, tier: c.parts[j.prim].cfg.Tier}
}

// outranks reports whether the planner may take reservation h's holds.
func (c *cycle) outranks(who planner, h int32) bool {
	return h == who.own || c.resvs[h].tier < who.tier
}

// slotReady is when GPU slot s is free for the planner.
func (c *cycle) slotReady(s int, who planner, others bool) (tick, int32) {
	t := c.now
	if o := c.gpuOcc[s]; o != 0 {
		t = c.runs[o-1].end
	}
	h := c.gpuHold[s] - 1
	if h < 0 || c.outranks(who, h) {
		return t, -1
	}
	if !others {
		return never, -1
	}
	return max(t, c.resvDone(c.resvs[h])), h
}

func cmpTick(a, b tick) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cpuMemReady is when enough CPUs and memory free on n, releasing running
// jobs in order of their ends. Other reservations' needs stay taken, or,
// with others set, free when their jobs would end (as their held GPUs do
// in slotReady). An exclusive request waits for every job on the node to
// end.
func (c *cycle) cpuMemReady(n *nodeInfo, nd need, excl bool, who planner, others bool) (tick, tick) {
	cpus, mem := n.cpus-n.allocC, n.mem-n.allocM
	var buf [32]release
	rel := buf[:0]
	for _, h := range n.holders {
		if c.outranks(who, h.r) {
			continue
		}
		cpus -= h.cpus
		mem -= h.mem
		if others {
			rel = append(rel, release{end: c.resvDone(c.resvs[h.r]), cpus: h.cpus, mem: h.mem})
		}
	}
	if cpus >= nd.c && mem >= nd.m && (!excl || len(n.runs) == 0) {
		return c.now, c.now
	}
	var last tick
	for _, nr := range n.runs {
		end := c.runs[nr.r].end
		rel = append(rel, release{end: end, cpus: nr.cpus, mem: nr.mem})
		last = max(last, end)
	}
	slices.SortFunc(rel, func(a, b release) int { return cmpTick(a.end, b.end) })
	tc, tm := never, never
	if cpus >= nd.c {
		tc = c.now
	}
	if mem >= nd.m {
		tm = c.now
	}
	for _, r := range rel {
		cpus += r.cpus
		mem += r.mem
		if tc == never && cpus >= nd.c {
			tc = r.end
		}
		if tm == never && mem >= nd.m {
			tm = r.end
		}
	}
	if excl && len(n.runs) > 0 {
		tc, tm = max(tc, last), max(tm, last)
	}
	return tc, tm
}

// release is CPUs and memory that free at end.
type release struct {
	end  tick
	cpus int
	mem  int64
}

// resvDone is when a reservation's job would end: after its planned start
// plus its limit, or at an unknown time (just before never).
func (c *cycle) resvDone(r *resv) tick {
	if r.ps > 0 && r.limit > 0 {
		return after(r.ps, r.limit)
	}
	return never - 1
}

// planFor finds the nodes where job j's request becomes available soonest,
// by the running jobs' time limits, and the planned start: the time the
// last of them is ready. Among the nodes ready by then it prefers the -w
// nodes, then nodes the reservation already holds (so it does not wander),
// then node preference, on as few leaf switches as possible.
func (c *cycle) planFor(j *jobInfo, own int32, others bool) (resvPlan, bool) {
	d := j.dem
	p := &c.parts[j.prim]
	cands, ticks := c.planCands[:0], c.planTicks[:0]
	for _, ni := range p.nodes {
		n := &c.nodes[ni]
		if !n.schedulable() || !d.nodeStatic(n, ni, d.g, d.c, d.m) {
			continue
		}
		t, ok := c.readyAt(ni, need{d.g, d.c, d.memOn(n, d.m)}, d.excl, c.plannerOf(j, own), others, nil)
		if c.adv.byNode != nil && ok {
			t = c.advReady(j, ni, t) // admin windows are busy time (advresv.go)
			ok = t != never
		}
		if !ok {
			continue
		}
		cands = append(cands, planCand{node: ni, t: t})
		ticks = append(ticks, t)
	}
	c.planCands, c.planTicks = cands, ticks
	if len(cands) < d.n {
		return resvPlan{}, false
	}
	slices.Sort(ticks)
	ps := ticks[d.n-1]
	for _, ni := range d.nodeList {
		i := slices.IndexFunc(cands, func(x planCand) bool { return x.node == ni })
		if i < 0 {
			return resvPlan{}, false
		}
		ps = max(ps, cands[i].t)
	}
	if d.contig {
		return c.contigResvPlan(j, own, others, cands)
	}
	ps, keep := c.switchPlan(cands, d, ps) // switches.go
	ready := make([]planCand, 0, d.n)
	for _, x := range cands {
		if x.t <= ps && (keep == nil || keep[c.leafOf(x.node)]) {
			x.listed = slices.Contains(d.nodeList, x.node)
			x.mine = own >= 0 && slices.ContainsFunc(c.nodes[x.node].holders, func(h holdRef) bool { return h.r == own })
			ready = append(ready, x)
		}
	}
	// cands are in rank order, so a stable sort keeps node preference.
	slices.SortStableFunc(ready, func(a, b planCand) int {
		if a.listed != b.listed {
			return boolFirst(a.listed)
		}
		if a.mine != b.mine {
			return boolFirst(a.mine)
		}
		return 0
	})
	nodes := make([]int32, len(ready))
	times := make(map[int32]tick, len(ready))
	for i, x := range ready {
		nodes[i] = x.node
		times[x.node] = x.t
	}
	k := len(d.nodeList)
	chosen := append(slices.Clone(nodes[:k]), c.pickLeaves(nodes[k:], d.n-k)...)
	return c.planOn(j, own, others, ps, chosen, times), true
}

// planOn is job j's reservation plan on chosen nodes from ps: the nodes in
// preference order, when each is ready (times), and the reservations it
// waits on.
func (c *cycle) planOn(j *jobInfo, own int32, others bool, ps tick, chosen []int32, times map[int32]tick) resvPlan {
	slices.SortFunc(chosen, func(a, b int32) int { return int(c.nodes[a].rank - c.nodes[b].rank) })
	pl := resvPlan{ps: ps, nodes: chosen}
	for _, ni := range chosen {
		pl.times = append(pl.times, times[ni])
	}
	pl.waits = c.waitsOn(chosen, c.plannerOf(j, own), others, j.dem)
	pl.unknown = ps >= never-1
	return pl
}

// planCand is a node with the time it is ready for a reservation.
type planCand struct {
	node   int32
	t      tick
	listed bool
	mine   bool
}

func boolFirst(a bool) int {
	if a {
		return -1
	}
	return 1
}

// waitsOn lists the reservations whose held GPUs the chosen nodes need.
func (c *cycle) waitsOn(nodes []int32, who planner, others bool, d *demand) []int32 {
	if !others {
		return nil
	}
	var w []int32
	for _, ni := range nodes {
		var nw []int32
		c.readyAt(ni, need{d.g, d.c, d.memOn(&c.nodes[ni], d.m)}, d.excl, who, true, &nw)
		for _, h := range nw {
			if !slices.Contains(w, h) {
				w = append(w, h)
			}
		}
	}
	slices.Sort(w)
	return w
}

// planAny plans without other reservations' resources, and failing that
// with them (recording whom it waits for).
func (c *cycle) planAny(j *jobInfo, own int32) (resvPlan, bool) {
	if pl, ok := c.planFor(j, own, false); ok {
		return pl, true
	}
	return c.planFor(j, own, true)
}
