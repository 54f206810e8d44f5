package sched

import "slices"

// -C beyond a plain AND list of features (job.Constraint): a per-node
// test (OR, parentheses) sits in demand.feat and is checked with the
// other static properties of a node (nodeStatic); each option of a
// matching OR ("[a|b]") is a demand of its own, tried in order like a
// further partition (resolveParts); counts ("a*2", "[a*2&b*4]") sit in
// demand.counts and shape the choice of a multi-node job's nodes here.

// countsFeasible reports whether partition p has enough nodes for each of
// d's counts, each able to hold a node's share of the job, and d enough
// nodes for them all.
func (c *cycle) countsFeasible(d *demand, p *partInfo) bool {
	total := 0
	for _, fc := range d.counts {
		total += fc.Nodes
		have := 0
		for _, ni := range p.nodes {
			n := &c.nodes[ni]
			if d.nodeStatic(n, ni, d.g, d.c, d.m) && fc.Test.Match(n.features) {
				have++
			}
		}
		if have < fc.Nodes {
			return false
		}
	}
	return total <= d.n
}

// chooseCounted picks d.n nodes from cands (sorted by preference) so that
// each of d's counts has its own nodes that pass its test, as Slurm picks
// the nodes of each count before the rest (_get_req_features): the -w
// nodes first, then for each count the most preferred nodes that pass it,
// then the most preferred of the others. Only the last node may be one
// that fits the smaller last share only.
func (c *cycle) chooseCounted(cands []cand, d *demand) []int32 {
	chosen := make([]int32, 0, d.n)
	for _, ni := range d.nodeList {
		i := slices.IndexFunc(cands, func(x cand) bool { return x.node == ni })
		if i < 0 || !cands[i].full {
			return nil
		}
		chosen = append(chosen, ni)
	}
	claimed := make([]bool, len(chosen), d.n)
	for _, fc := range d.counts {
		got := 0
		for i, ni := range chosen { // -w nodes that pass count first
			if got < fc.Nodes && !claimed[i] && fc.Test.Match(c.nodes[ni].features) {
				claimed[i] = true
				got++
			}
		}
		for _, cd := range cands {
			if got == fc.Nodes || len(chosen) == d.n {
				break
			}
			if cd.full && !slices.Contains(chosen, cd.node) && fc.Test.Match(c.nodes[cd.node].features) {
				chosen, claimed = append(chosen, cd.node), append(claimed, true)
				got++
			}
		}
		if got < fc.Nodes {
			return nil
		}
	}
	var last int32 = -1
	for _, cd := range cands {
		if len(chosen) == d.n {
			break
		}
		switch {
		case slices.Contains(chosen, cd.node):
		case cd.full:
			chosen = append(chosen, cd.node)
		case last < 0:
			last = cd.node
		}
	}
	if len(chosen) == d.n-1 && last >= 0 {
		chosen = append(chosen, last)
	}
	if len(chosen) < d.n {
		return nil
	}
	return chosen
}
