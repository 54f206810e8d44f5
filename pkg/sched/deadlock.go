package sched

import (
	"cmp"
	"slices"
	"time"
)

// Deadlock (R10). A reservation holds GPUs that were free when it took them
// and waits for the rest of its plan. Normally the rest comes from running
// jobs, which end by their time limits. But when the only resources that
// could complete a reservation are held by another reservation, it waits
// for that one; and if that one (directly or through others) waits for
// the first, neither can ever start: the seed's "job A holds X and waits
// for Y while job B holds Y and waits for X". Priorities change between
// cycles and reservations are sticky, so such cycles can form.
//
// The wait-for graph has an edge R -> S when R's best plan needs GPUs that
// S holds (planFor with others set). Every cycle is broken by dropping one
// of its reservations: the lowest priority, then the most recently
// created, then the highest job id; that frees its GPUs for the others.
// We look again until no cycle is left, so every cycle is broken.
//
// Priority comes first because it is what aging raises (R3): a job whose
// reservation was dropped before re-creates it later, so "most recent"
// first would pick the longest-waiting job again and again while younger
// ones keep theirs. By priority the oldest job wins once aging has lifted
// it, and equal priorities still keep the older reservation.

// analyzeWaits computes, for every carried reservation, whom it waits on,
// and drops those that have no plan at all any more.
func (c *cycle) analyzeWaits() {
	for ri, rv := range c.resvs {
		if rv.dead || rv.job == nil {
			continue
		}
		if _, ok := c.planFor(rv.job, int32(ri), false); ok {
			rv.waits = nil
			continue
		}
		pl, ok := c.planFor(rv.job, int32(ri), true)
		if !ok {
			c.dropResv(int32(ri), DropInfeasible, nil, time.Time{})
			continue
		}
		rv.waits = pl.waits
	}
}

// breakDeadlocks finds and breaks every cycle in the wait-for graph, and
// reports whether it broke any. The victim's job gets its queue's
// reservation cool-down, so that it does not take the freed resources
// back before the others use them.
func (c *cycle) breakDeadlocks() bool {
	broke := false
	for {
		cyc := c.findCycle()
		if cyc == nil {
			return broke
		}
		broke = true
		victim := slices.MinFunc(cyc, func(a, b int32) int {
			ra, rb := c.resvs[a], c.resvs[b]
			if x := cmp.Compare(ra.job.prio, rb.job.prio); x != 0 {
				return x // lowest priority first
			}
			if x := cmp.Compare(rb.created, ra.created); x != 0 {
				return x // then the most recent
			}
			return cmpID(rb.id, ra.id)
		})
		var with []JobID
		for _, ri := range cyc {
			if ri != victim {
				with = append(with, c.resvs[ri].id)
			}
		}
		slices.Sort(with)
		var until time.Time
		rv := c.resvs[victim]
		if cd := c.parts[rv.part].cfg.ReservationCooldown; cd > 0 && c.pol == PolicyLoam {
			rv.job.coolUntil = c.now + int64(cd)
			until = fromTick(rv.job.coolUntil)
		}
		c.dropResv(victim, DropDeadlock, with, until)
		c.plan.Stats.Deadlocks++
		for _, rv := range c.resvs {
			rv.waits = slices.DeleteFunc(rv.waits, func(w int32) bool { return w == victim })
		}
	}
}

// findCycle returns the reservations of one cycle of the wait-for graph,
// searching from reservations in order, or nil.
func (c *cycle) findCycle() []int32 {
	const (
		white = iota
		grey
		black
	)
	color := make([]int8, len(c.resvs))
	var stack []int32
	var found []int32
	var visit func(r int32) bool
	visit = func(r int32) bool {
		color[r] = grey
		stack = append(stack, r)
		for _, w := range c.resvs[r].waits {
			if c.resvs[w].dead {
				continue
			}
			switch color[w] {
			case grey:
				i := slices.Index(stack, w)
				found = slices.Clone(stack[i:])
				return true
			case white:
				if visit(w) {
					return true
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[r] = black
		return false
	}
	for ri, rv := range c.resvs {
		if !rv.dead && rv.job != nil && color[ri] == white && visit(int32(ri)) {
			return found
		}
	}
	return nil
}

// settleDeadlocks breaks the cycles formed during the pass, then lets the
// surviving reservations re-plan at once, in job order, so they take the
// resources the victims freed before anyone else can; that may close new
// cycles, so it repeats (a few rounds at most: every round drops one).
func (c *cycle) settleDeadlocks() {
	for round := 0; round < len(c.resvs) && c.breakDeadlocks(); round++ {
		for ri, rv := range c.resvs {
			if rv.dead || rv.job == nil || rv.job.starts > 0 {
				continue
			}
			pl, ok := c.planAny(rv.job, int32(ri))
			switch {
			case !ok:
				c.dropResv(int32(ri), DropInfeasible, nil, time.Time{})
			case !pl.unknown && pl.ps <= c.now:
				c.commitPlan(int32(ri), pl)
				c.startSurvivor(rv.job)
			default:
				c.commitPlan(int32(ri), pl)
			}
		}
	}
}

// startSurvivor starts a job whose reservation became complete when a
// deadlock was broken, rather than idling its resources until the next
// cycle.
func (c *cycle) startSurvivor(j *jobInfo) {
	reason := j.reason
	j.reason = ""
	if c.tryStart(j) {
		return
	}
	if j.reason == "" {
		j.reason = reason
	}
}
