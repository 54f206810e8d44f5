package sched

import (
	"cmp"
	"slices"
	"strconv"
)

// --switches=COUNT@WAIT, as Slurm's topology/tree applies it: until the
// job has waited WAIT (counted from when it became eligible; Slurm counts
// from its first evaluation), it starts only on nodes under at most COUNT
// leaf switches; after that, anywhere. Without a topology it does nothing.
// It never makes a job impossible: the wait is bounded (max_switch_wait),
// so it changes where and when a job starts, never the reason it cannot.

// switchDemand makes d hold pj's switch limit while it binds this cycle.
// The limit joins the demand's key, so that failure caches do not mix the
// job with unconstrained requests of the same size.
func (c *cycle) switchDemand(d *demand, pj *PendingJob) {
	sh := &pj.Shape
	if sh.Switches <= 0 || c.leaves == 0 || (d.n <= 1 && d.wide == nil) {
		return
	}
	from := pj.Eligible
	if from.IsZero() {
		from = pj.Submit
	}
	until := after(toTick(from), sh.SwitchWait)
	if sh.SwitchWait <= 0 || until <= c.now {
		return
	}
	for _, x := range []*demand{d, d.wide} {
		if x != nil && x.n > 1 {
			x.maxLeaves, x.leafUntil = sh.Switches, until
			x.key += "|s" + strconv.Itoa(sh.Switches) + "@" + strconv.FormatInt(until, 10)
		}
	}
}

// leafCount is how many leaf switches nodes span (nodes outside the
// topology count as one more).
func (c *cycle) leafCount(nodes []int32) int {
	seen := make([]bool, c.leaves+1)
	n := 0
	for _, ni := range nodes {
		if l := c.leafOf(ni); !seen[l] {
			seen[l] = true
			n++
		}
	}
	return n
}

// leavesOK reports whether nodes, starting now, respect d's switch limit.
// The usual choice (pickLeaves: the largest leaves first while none holds
// the rest, then the best fit) already spans the fewest leaves the
// candidates allow, so a choice that fails this has no better one now.
func (c *cycle) leavesOK(nodes []int32, d *demand) bool {
	return d.maxLeaves == 0 || c.now >= d.leafUntil || c.leafCount(nodes) <= d.maxLeaves
}

// topLeaves chooses the leaves a request of n nodes on at most k leaves
// may use, given how many usable nodes each leaf has: with k = 1 every
// leaf that alone holds n, else the k leaves with the most (ties to the
// lower index), if together they hold n. Nil when no choice holds n.
func (c *cycle) topLeaves(count []int, k, n int) []bool {
	keep := make([]bool, len(count))
	if k == 1 {
		any := false
		for l, x := range count {
			if x >= n {
				keep[l], any = true, true
			}
		}
		if !any {
			return nil
		}
		return keep
	}
	order := make([]int, len(count))
	for l := range order {
		order[l] = l
	}
	slices.SortStableFunc(order, func(a, b int) int { return count[b] - count[a] })
	sum := 0
	for _, l := range order[:min(k, len(order))] {
		keep[l] = true
		sum += count[l]
	}
	if sum < n {
		return nil
	}
	return keep
}

// leafReady is the earliest tick by which n of cands are ready under at
// most k leaf switches, and the leaves to take them from; never when no k
// leaves ever hold n.
func (c *cycle) leafReady(cands []planCand, n, k int) (tick, []bool) {
	order := slices.Clone(cands)
	slices.SortStableFunc(order, func(a, b planCand) int { return cmp.Compare(a.t, b.t) })
	count := make([]int, c.leaves+1)
	for i := 0; i < len(order); {
		t := order[i].t
		for ; i < len(order) && order[i].t == t; i++ {
			count[c.leafOf(order[i].node)]++
		}
		if keep := c.topLeaves(count, k, n); keep != nil {
			if k == 1 { // the best fit among the leaves that hold n
				best := -1
				for l, ok := range keep {
					if ok && (best < 0 || count[l] < count[best]) {
						best = l
					}
				}
				keep = make([]bool, len(count))
				keep[best] = true
			}
			return t, keep
		}
	}
	return never, nil
}

// switchPlan applies d's switch limit to a reservation planned to start
// at ps on cands: the start on at most d.maxLeaves leaves, when that is
// no later than the end of the job's wait, with the leaves to use; else
// the end of the wait (or ps, if later) on any leaves (nil).
func (c *cycle) switchPlan(cands []planCand, d *demand, ps tick) (tick, []bool) {
	if d.maxLeaves == 0 || ps >= d.leafUntil || len(d.nodeList) > 0 {
		return ps, nil
	}
	t, keep := c.leafReady(cands, d.n, d.maxLeaves)
	if t <= d.leafUntil {
		return max(t, ps), keep
	}
	return d.leafUntil, nil
}

// pickedNodes lists a placement's nodes.
func pickedNodes(picks []pick) []int32 {
	out := make([]int32, len(picks))
	for i, pk := range picks {
		out[i] = pk.node
	}
	return out
}
