package sched

import "slices"

// Node selection of the Slurm baselines (PolicyEASY, PolicyFCFS): what
// select/cons_tres does in Slurm 22.05 (job_test.c, _eval_nodes and
// _eval_nodes_topo), so that the baselines place jobs where Slurm would,
// not where Loam's GPU-aware best fit would. Slurm looks at node weights,
// node order, free CPUs and switch fill; it does not look at how many GPUs
// a node has left, so it does not keep whole nodes whole for big jobs.
//
// The usable nodes are those that can take one node's share of the job now
// (free GPUs, CPUs and memory, not held by a reservation the job may not
// use). Then:
//
//   - With a topology (topology/tree), required (-w) nodes first, then
//     leaf switches one at a time: the leaf with the fewest usable nodes
//     that can hold the rest of the job, or if none can, the one with the
//     most; nodes in index order within it (_eval_nodes_topo).
//   - Without one, maximal runs of consecutive usable nodes of equal
//     weight, lowest weight first; among equal weights the run whose free
//     CPUs suffice with the fewest of them, else the run with the most
//     (Slurm's exact tie rules, order dependence included); nodes in index
//     order within it, except that the last node of a job picks the node
//     of the run with the fewest free CPUs that still fit
//     (_eval_nodes, "best fit single node").
//
// Index order is Slurm's node order: weight, then host-list order (rank).
// Requests whose nodes need different shares (a GPU count that does not
// divide evenly) keep the generic placement.

// slurmPlace finds nodes for demand d in partition p as Slurm would, for a
// job ending at end that owns reservation own; nil when it does not fit.
func (c *cycle) slurmPlace(p int32, d *demand, end tick, own int32) []pick {
	avail := c.scratch.cands[:0]
	for _, ni := range c.parts[p].nodes {
		if cd, ok := c.evalNode(p, ni, d, end, own); ok && cd.full {
			avail = append(avail, cd)
		}
	}
	c.scratch.cands = avail[:0]
	if len(avail) < d.n {
		return nil
	}
	var chosen []int32
	for _, ni := range d.nodeList {
		if !slices.ContainsFunc(avail, func(x cand) bool { return x.node == ni }) {
			return nil
		}
		chosen = append(chosen, ni)
	}
	rest := make([]cand, 0, len(avail))
	for _, cd := range avail {
		if !slices.Contains(chosen, cd.node) {
			rest = append(rest, cd)
		}
	}
	need := d.n - len(chosen)
	if need > 0 {
		var more []int32
		if c.leaves > 0 {
			more = c.slurmLeaves(rest, chosen, need)
		} else {
			more = c.slurmConsec(p, rest, d, end, own, need)
		}
		if len(more) < need {
			return nil
		}
		chosen = append(chosen, more...)
	}
	slices.SortFunc(chosen, func(a, b int32) int { return int(c.nodes[a].rank - c.nodes[b].rank) })
	return c.pickGPUs(p, chosen, d, end, own)
}

// slurmLeaves takes need nodes from avail: first from the leaves of the
// required nodes, in node order, then leaf by leaf as _eval_nodes_topo
// does (leafFill).
func (c *cycle) slurmLeaves(avail []cand, required []int32, need int) []int32 {
	mine := make([]bool, c.leaves+1)
	for _, ni := range required {
		mine[c.leafOf(ni)] = true
	}
	var out, others []int32
	for _, cd := range avail {
		switch {
		case !mine[c.leafOf(cd.node)]:
			others = append(others, cd.node)
		case len(out) < need:
			out = append(out, cd.node)
		}
	}
	if len(out) < need {
		out = append(out, c.leafFill(others, need-len(out))...)
	}
	return out
}

// consecRun is a run of nodes consecutive in Slurm's node order.
type consecRun struct {
	nodes  []int32
	cpus   int
	weight int
}

// slurmConsec takes need nodes from the runs of consecutive usable nodes,
// as _eval_nodes does without a topology.
func (c *cycle) slurmConsec(p int32, avail []cand, d *demand, end tick, own int32, need int) []int32 {
	tier := c.parts[p].cfg.Tier
	freeCPU := make(map[int32]int, len(avail))
	var runs []consecRun
	for i, cd := range avail {
		n := &c.nodes[cd.node]
		cpus, _ := c.nodeCPUFree(n, own, end, tier)
		cpus = c.capPartCPUs(p, cd.node, cpus) // maxcpus.go
		freeCPU[cd.node] = cpus
		if i == 0 || n.rank != c.nodes[avail[i-1].node].rank+1 || n.weight != runs[len(runs)-1].weight {
			runs = append(runs, consecRun{weight: n.weight})
		}
		r := &runs[len(runs)-1]
		r.nodes = append(r.nodes, cd.node)
		r.cpus += cpus
	}
	remCPU := d.c*(need-1) + d.lc
	var out []int32
	for len(out) < need {
		rest := need - len(out)
		best, bestSuff := -1, false
		for i := range runs {
			r := &runs[i]
			if len(r.nodes) == 0 {
				continue
			}
			suff := len(r.nodes) >= rest && r.cpus >= remCPU
			better := best < 0 || r.weight < runs[best].weight
			if !better && r.weight == runs[best].weight {
				b := &runs[best]
				better = (suff && !bestSuff) || (suff && r.cpus < b.cpus) || (!suff && r.cpus > b.cpus)
			}
			if better {
				best, bestSuff = i, suff
			}
		}
		if best < 0 {
			break
		}
		r := &runs[best]
		nodes := r.nodes
		if rest == 1 {
			// Best fit single node: the fewest free CPUs that still fit.
			pick := int32(-1)
			for _, ni := range nodes {
				if freeCPU[ni] >= remCPU && (pick < 0 || freeCPU[ni] < freeCPU[pick]) {
					pick = ni
				}
			}
			if pick >= 0 {
				nodes = []int32{pick}
			}
		}
		for _, ni := range nodes {
			if len(out) == need {
				break
			}
			out = append(out, ni)
			remCPU -= freeCPU[ni]
		}
		r.nodes, r.cpus = nil, 0
	}
	return out
}
