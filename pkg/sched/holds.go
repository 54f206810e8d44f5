package sched

import (
	"slices"
	"time"
)

// drop is a reservation drop decided during the cycle, emitted in order.
type drop struct {
	res       Reservation
	r         int32
	reason    DropReason
	cycleWith []JobID
	after     time.Time
}

// loadReservations takes over the reservations the caller carried from the
// last cycle, in job order, so that when two claim the same GPU the
// higher-priority job keeps it. Reservations whose job left the queue (or
// can no longer be considered) are dropped as gone. Under EASY nothing is
// held over: Slurm's backfill plans the top job afresh every pass, so only
// the creation time carries over.
func (c *cycle) loadReservations(ids jobIndex) {
	rs := slices.Clone(c.snap.Reservations)
	posOf := func(id JobID) int {
		if ji, ok := ids.lookup(id); ok {
			return int(ji) // jobs are in scheduling order
		}
		return len(c.jobs)
	}
	slices.SortStableFunc(rs, func(a, b Reservation) int {
		if pa, pb := posOf(a.Job), posOf(b.Job); pa != pb {
			return pa - pb
		}
		return cmpID(a.Job, b.Job)
	})
	for i := range rs {
		r := &rs[i]
		ji, ok := ids.lookup(r.Job)
		var j *jobInfo
		if ok {
			j = &c.jobs[ji]
		}
		rv := &resv{id: r.Job, prev: r, part: c.partOf(r.Partition), created: toTick(r.Created), ps: toTick(r.PlannedStart)}
		ri := int32(len(c.resvs))
		c.resvs = append(c.resvs, rv)
		switch {
		case j == nil || j.resv >= 0 || (j.reason != "" && j.reason != ReasonJobArrayTaskLimit):
			c.dropResv(ri, DropGone, nil, time.Time{})
			continue
		case c.pol == PolicyFCFS:
			c.dropResv(ri, DropDisplaced, nil, time.Time{})
			continue
		}
		rv.job, rv.part, rv.limit, rv.strict = j, j.prim, j.limit, c.parts[j.prim].strict
		rv.claimed, rv.promise, rv.gained = r.Claimed, toTick(r.Promised), toTick(r.Progress)
		if rv.gained == 0 {
			rv.gained = rv.created
		}
		rv.tier = c.parts[j.prim].cfg.Tier
		if rv.created == 0 {
			rv.created = c.now
		}
		j.resv = ri
		c.parts[j.prim].resvs++
		if c.pol == PolicyLoam {
			rv.borrows = c.borrowsFor(j)
			c.loadHolds(ri, r)
		}
	}
	c.recomputePermit()
}

// loadHolds re-establishes the held GPUs and needs of a carried
// reservation on nodes that can still serve it. A held GPU now running a
// job is kept only if that job ends by the planned start (it was lent to a
// backfill job); anything else means the hold was lost.
func (c *cycle) loadHolds(ri int32, r *Reservation) {
	rv := c.resvs[ri]
	for _, a := range r.Alloc {
		ni, ok := c.nodeIdx[a.Node]
		if !ok || slices.Contains(rv.nodes, ni) {
			continue
		}
		n := &c.nodes[ni]
		if !n.schedulable() || !slices.Contains(n.parts, rv.part) {
			continue
		}
		rv.nodes = append(rv.nodes, ni)
		rv.need = append(rv.need, need{g: rv.job.dem.g, c: max(a.CPUs, 0), m: max(a.MemMB, 0)})
		n.holders = append(n.holders, holdRef{r: ri, cpus: max(a.CPUs, 0), mem: max(a.MemMB, 0)})
		for _, g := range a.GPUs {
			if g < 0 || g >= n.gpus {
				continue
			}
			s := n.base + g
			if c.gpuHold[s] != 0 {
				continue
			}
			if o := c.gpuOcc[s]; o != 0 && (rv.ps == 0 || c.runs[o-1].end > rv.ps) {
				continue
			}
			c.gpuHold[s] = ri + 1
		}
		c.refreshNode(ni)
	}
}

// growHolds lets every carried reservation take, in job order, the GPUs
// that freed on its planned nodes since the last cycle (R9: "further
// resources are added as they free up"). Doing it before the pass means a
// reservation gets what it waited for even when a job of higher priority
// that holds no reservation comes first; that job may still use the GPUs
// if it ends by the planned start. This is also what hands the GPUs of
// preempted jobs to the job that preempted them: claimed reservations go
// first, so a big reservation that plans on the same nodes does not take
// what a reclaim or an urgent job freed for itself.
func (c *cycle) growHolds() {
	for _, claimed := range []bool{true, false} {
		for ri, rv := range c.resvs {
			if rv.dead || rv.job == nil || rv.claimed != claimed {
				continue
			}
			for k, ni := range rv.nodes {
				c.holdSlots(int32(ri), ni, rv.need[k].g, rv.ps)
			}
			rv.await = nil // recomputed when the reservation is re-planned
		}
	}
}

// dropResv releases a reservation's holds and records the drop.
func (c *cycle) dropResv(ri int32, why DropReason, with []JobID, after time.Time) {
	rv := c.resvs[ri]
	if rv.dead {
		return
	}
	res := c.output(rv)
	if rv.prev != nil && !rv.seen {
		res = *rv.prev
	}
	c.drops = append(c.drops, drop{res: res, r: ri, reason: why, cycleWith: with, after: after})
	c.releaseHolds(ri)
	rv.dead = true
	if rv.job != nil {
		rv.job.resv = -1
		c.parts[rv.part].resvs--
	}
	c.recomputePermit()
}

// releaseHolds frees everything a reservation holds.
func (c *cycle) releaseHolds(ri int32) {
	rv := c.resvs[ri]
	for _, ni := range rv.nodes {
		c.unholdNode(ri, ni)
	}
	rv.nodes, rv.need = nil, nil
}

func (c *cycle) unholdNode(ri int32, ni int32) {
	n := &c.nodes[ni]
	n.holders = slices.DeleteFunc(n.holders, func(h holdRef) bool { return h.r == ri })
	for s := n.base; s < n.base+n.gpus; s++ {
		if c.gpuHold[s] == ri+1 {
			c.gpuHold[s] = 0
		}
	}
	c.refreshNode(ni)
	c.fails.reset() // resources came back: failed shapes may fit now
}

// commitPlan makes pl the reservation's allocation: it keeps what it
// already holds on the planned nodes, takes the free GPUs there, and lets
// go of everything else.
func (c *cycle) commitPlan(ri int32, pl resvPlan) {
	rv := c.resvs[ri]
	d := rv.job.dem
	for _, ni := range rv.nodes {
		if !slices.Contains(pl.nodes, ni) {
			c.unholdNode(ri, ni)
		}
	}
	rv.nodes, rv.need, rv.await = pl.nodes, nil, nil
	for k, ni := range pl.nodes {
		n := &c.nodes[ni]
		g, cpus, mem := d.need(n, k == len(pl.nodes)-1)
		if d.excl || c.pol == PolicyEASY {
			// Slurm's backfill map reserves whole nodes.
			g, cpus, mem = n.gpus, n.cpus, n.mem
		}
		rv.need = append(rv.need, need{g, cpus, mem})
		i := slices.IndexFunc(n.holders, func(h holdRef) bool { return h.r == ri })
		if i < 0 {
			n.holders = append(n.holders, holdRef{r: ri, cpus: cpus, mem: mem})
		} else {
			n.holders[i] = holdRef{r: ri, cpus: cpus, mem: mem}
		}
		ps := pl.ps
		if pl.unknown {
			ps = 0
		}
		c.holdSlots(ri, ni, g, ps)
	}
	rv.ps = pl.ps
	if pl.unknown {
		rv.ps = 0
	}
	if rv.ps > 0 && (rv.promise == 0 || rv.ps < rv.promise) {
		rv.promise = rv.ps
	}
	rv.waits = pl.waits
	rv.seen = true
	c.recomputePermit()
}

// holdSlots keeps g GPU slots of node ni for reservation ri, planned to
// start at ps: its current holds first (those lent to a job that ends
// after ps are let go), then free slots, lowest index first; the rest it
// still needs are recorded as awaited, soonest-free first.
func (c *cycle) holdSlots(ri int32, ni int32, g int, ps tick) {
	n := &c.nodes[ni]
	rv := c.resvs[ri]
	held, released := 0, false
	for s := n.base; s < n.base+n.gpus; s++ {
		if c.gpuHold[s] == ri+1 {
			if o := c.gpuOcc[s]; o != 0 && (ps == 0 || c.runs[o-1].end > ps) {
				c.gpuHold[s] = 0
				continue
			}
			if held < g {
				held++
			} else {
				c.gpuHold[s] = 0
				released = true
			}
		}
	}
	for s := n.base; s < n.base+n.gpus && held < g; s++ {
		if c.gpuHold[s] == 0 && c.gpuOcc[s] == 0 {
			c.gpuHold[s] = ri + 1
			held++
		}
	}
	// A higher tier takes free GPUs that lower tiers hold; they re-plan.
	for s := n.base; s < n.base+n.gpus && held < g; s++ {
		if h := c.gpuHold[s] - 1; h >= 0 && h != ri && c.gpuOcc[s] == 0 && c.resvs[h].tier < rv.tier {
			c.gpuHold[s] = ri + 1
			held++
		}
	}
	if held < g {
		var rest []slotTime
		for s := n.base; s < n.base+n.gpus; s++ {
			if c.gpuHold[s] != ri+1 {
				t, _ := c.slotReady(s, planner{own: ri, tier: rv.tier}, true)
				rest = append(rest, slotTime{t: t, holder: int32(s - n.base)})
			}
		}
		slices.SortStableFunc(rest, func(a, b slotTime) int { return cmpTick(a.t, b.t) })
		aw := NodeAlloc{Node: n.name}
		for _, st := range rest[:min(g-held, len(rest))] {
			aw.GPUs = append(aw.GPUs, int(st.holder))
		}
		slices.Sort(aw.GPUs)
		rv.await = append(rv.await, aw)
	}
	c.refreshNode(ni)
	if released {
		c.fails.reset()
	}
}

// output renders a live reservation for the Plan.
func (c *cycle) output(rv *resv) Reservation {
	out := Reservation{Job: rv.id, Created: fromTick(rv.created), PlannedStart: fromTick(rv.ps),
		Promised: fromTick(rv.promise), Progress: fromTick(rv.gained), Claimed: rv.claimed}
	if rv.part >= 0 {
		out.Partition = c.parts[rv.part].cfg.Name
	}
	ri := int32(slices.Index(c.resvs, rv))
	for k, ni := range rv.nodes {
		n := &c.nodes[ni]
		a := NodeAlloc{Node: n.name, CPUs: rv.need[k].c, MemMB: rv.need[k].m}
		for s := n.base; s < n.base+n.gpus; s++ {
			if c.gpuHold[s] == ri+1 {
				a.GPUs = append(a.GPUs, s-n.base)
			}
		}
		out.Alloc = append(out.Alloc, a)
	}
	out.Awaiting = slices.Clone(rv.await)
	return out
}
