package sched

import (
	"slices"

	"github.com/loamhpc/loam/pkg/hostlist"
)

// --contiguous, as Slurm 22.05's select/cons_tres applies it (job_test.c,
// _eval_nodes with details->contiguous): the job's nodes are consecutive
// in the node table, which Slurm sorts by name (natural order) without a
// topology ranking. A node the job cannot use (busy, down, outside its
// partition, excluded, too small) breaks a run, whatever its weight. Among
// the runs long enough the one of the lowest weight (its last node's) is
// taken, then the one with the fewest free CPUs (the tightest), then the
// first; the job takes the run's first nodes. Both policies place such a
// job this way: it is rare, and Slurm's rule already keeps long runs for
// long requests. Jobs without --contiguous never reach this file.

// contigDemand makes d hold --contiguous: the flag joins the demand's key,
// so that failure caches do not mix the job with other requests of the
// same size, and -w's gaps are filled as slurmctld fills them at submit
// (bit_fill_gaps: -w cpu006,cpu008 runs on cpu[006-008]).
func (c *cycle) contigDemand(d *demand, pj *PendingJob) {
	if !pj.Shape.Contiguous {
		return
	}
	for _, x := range []*demand{d, d.wide} {
		if x == nil {
			continue
		}
		if len(x.nodeList) > 1 {
			x.nodeList = c.fillGaps(x.nodeList)
			x.n = max(x.n, len(x.nodeList))
		}
		if x.n > 1 { // one node is always contiguous
			x.contig = true
			x.key += "|c"
		}
	}
}

// hostPos is each node's place in Slurm's node table (natural name
// order), built on the first contiguous demand of a cycle.
func (c *cycle) hostPos() []int32 {
	if c.hostOrder != nil {
		return c.hostOrder
	}
	order := make([]int32, len(c.nodes))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return hostlist.Compare(c.nodes[a].name, c.nodes[b].name) })
	c.hostOrder = make([]int32, len(c.nodes))
	c.byHost = order
	for pos, ni := range order {
		c.hostOrder[ni] = int32(pos)
	}
	return c.hostOrder
}

// fillGaps adds to -w's nodes every node between them in node order.
func (c *cycle) fillGaps(nodes []int32) []int32 {
	pos := c.hostPos()
	lo, hi := pos[nodes[0]], pos[nodes[0]]
	for _, ni := range nodes {
		lo, hi = min(lo, pos[ni]), max(hi, pos[ni])
	}
	out := slices.Clone(nodes)
	for p := lo; p <= hi; p++ {
		if ni := c.byHost[p]; !slices.Contains(out, ni) {
			out = append(out, ni)
		}
	}
	return out
}

// byHostOrder sorts nodes into node table order.
func (c *cycle) byHostOrder(nodes []int32) {
	pos := c.hostPos()
	slices.SortFunc(nodes, func(a, b int32) int { return int(pos[a] - pos[b]) })
}

// contigRuns splits nodes, in node table order, into maximal runs of
// consecutive nodes.
func (c *cycle) contigRuns(nodes []int32) [][]int32 {
	pos := c.hostPos()
	var runs [][]int32
	for i, ni := range nodes {
		if i == 0 || pos[ni] != pos[nodes[i-1]]+1 {
			runs = append(runs, nil)
		}
		runs[len(runs)-1] = append(runs[len(runs)-1], ni)
	}
	return runs
}

// placeContig is placeSearch for a contiguous demand: every node of the
// partition that can take a share now, then chooseContig.
func (c *cycle) placeContig(p int32, d *demand, end tick, own int32) []pick {
	var cands []cand
	for _, ni := range c.parts[p].nodes {
		if cd, ok := c.evalNode(p, ni, d, end, own); ok {
			cands = append(cands, cd)
		}
	}
	nodes := c.chooseContig(p, cands, d, end, own)
	if nodes == nil || !c.leavesOK(nodes, d) { // switches.go
		return nil
	}
	return c.pickGPUs(p, nodes, d, end, own)
}

// contigPossible reports whether p has, up or not, d.n consecutive nodes
// that could each hold a share of d and every -w node among them.
func (c *cycle) contigPossible(d *demand, p *partInfo) bool {
	var nodes []int32
	for _, ni := range p.nodes {
		if d.nodeStatic(&c.nodes[ni], ni, d.g, d.c, d.m) {
			nodes = append(nodes, ni)
		}
	}
	c.byHostOrder(nodes)
	for _, run := range c.contigRuns(nodes) {
		if len(run) >= d.n && containsAll(run, d.nodeList) {
			return true
		}
	}
	return false
}

// chooseContig picks d.n consecutive nodes from cands, the nodes that can
// take a full share of d now; nil when no run is long enough or holds
// every -w node.
func (c *cycle) chooseContig(p int32, cands []cand, d *demand, end tick, own int32) []int32 {
	var usable []int32
	for _, cd := range cands {
		if cd.full {
			usable = append(usable, cd.node)
		}
	}
	c.byHostOrder(usable)
	tier := c.parts[p].cfg.Tier
	best, bestCPUs := []int32(nil), 0
	for _, run := range c.contigRuns(usable) {
		if len(run) < d.n || !containsAll(run, d.nodeList) {
			continue
		}
		cpus := 0
		for _, ni := range run {
			free, _ := c.nodeCPUFree(&c.nodes[ni], own, end, tier)
			cpus += c.capPartCPUs(p, ni, free) // maxcpus.go
		}
		w := c.nodes[run[len(run)-1]].weight
		if best == nil || w < c.nodes[best[len(best)-1]].weight ||
			(w == c.nodes[best[len(best)-1]].weight && cpus < bestCPUs) {
			best, bestCPUs = run, cpus
		}
	}
	if best == nil {
		return nil
	}
	return window(best, d)
}

// window is d.n nodes of run holding every -w node: from the first -w
// node up, as Slurm takes them (then down when the run ends first), or
// the run's first nodes without -w.
func window(run []int32, d *demand) []int32 {
	start := 0
	for i, ni := range run {
		if slices.Contains(d.nodeList, ni) {
			start = min(i, len(run)-d.n)
			break
		}
	}
	if w := run[start : start+d.n]; containsAll(w, d.nodeList) {
		return slices.Clone(w)
	}
	return nil
}

func containsAll(set, want []int32) bool {
	for _, ni := range want {
		if !slices.Contains(set, ni) {
			return false
		}
	}
	return true
}

// contigResvPlan is planFor's plan for a contiguous demand.
func (c *cycle) contigResvPlan(j *jobInfo, own int32, others bool, cands []planCand) (resvPlan, bool) {
	ps, chosen, ready := c.contigPlan(cands, j.dem)
	if chosen == nil {
		return resvPlan{}, false
	}
	return c.planOn(j, own, others, ps, chosen, ready), true
}

// contigPlan is planFor's choice for a contiguous demand: among cands
// (nodes with the time each is ready), the d.n consecutive nodes ready
// soonest, holding every -w node, then the first such. never when no run
// is long enough. ready is when each candidate is ready.
func (c *cycle) contigPlan(cands []planCand, d *demand) (bestT tick, best []int32, ready map[int32]tick) {
	ready = make(map[int32]tick, len(cands))
	nodes := make([]int32, len(cands))
	for i, x := range cands {
		nodes[i], ready[x.node] = x.node, x.t
	}
	c.byHostOrder(nodes)
	bestT = never
	for _, run := range c.contigRuns(nodes) {
		if !containsAll(run, d.nodeList) {
			continue
		}
		for start := 0; start+d.n <= len(run); start++ {
			w := run[start : start+d.n]
			t := tick(0)
			for _, ni := range w {
				t = max(t, ready[ni])
			}
			if t < bestT && containsAll(w, d.nodeList) {
				bestT, best = t, w
			}
		}
	}
	return bestT, slices.Clone(best), ready
}
