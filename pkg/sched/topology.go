package sched

import "slices"

// pickLeaves chooses n of nodes (in preference order) on as few leaf
// switches as possible, as Slurm's topology/tree does (_eval_nodes_topo):
// leaf by leaf, the leaf with the fewest suitable nodes that can hold what
// is left of the job (best fit, so big leaves stay whole for bigger jobs),
// or, when none can, the leaf with the most; ties go to the leaf that
// comes first in preference order. Within a chosen leaf, preference order
// decides. Nodes outside the topology count as one more leaf. A single
// node is simply the first in preference order: Loam's best fit already
// ranked them (the Slurm baselines use leafFill).
func (c *cycle) pickLeaves(nodes []int32, n int) []int32 {
	if c.leaves == 0 || n <= 1 || len(nodes) == n {
		return slices.Clone(nodes[:n])
	}
	return c.leafFill(nodes, n)
}

// leafFill is pickLeaves without the shortcuts: up to n of nodes, leaf by
// leaf.
func (c *cycle) leafFill(nodes []int32, n int) []int32 {
	count := make([]int, c.leaves+1)
	var order []int // leaves by first appearance in nodes
	for _, ni := range nodes {
		l := c.leafOf(ni)
		if count[l] == 0 {
			order = append(order, l)
		}
		count[l]++
	}
	take := make([]int, c.leaves+1)
	for left := n; left > 0; {
		best := -1
		for _, l := range order {
			if take[l] == 0 && count[l] > 0 && (best < 0 || slurmBetterLeaf(count[l], count[best], left)) {
				best = l
			}
		}
		if best < 0 {
			break
		}
		take[best] = min(count[best], left)
		left -= take[best]
	}
	out := make([]int32, 0, n)
	for _, ni := range nodes {
		if l := c.leafOf(ni); take[l] > 0 {
			take[l]--
			out = append(out, ni)
		}
	}
	return out
}

// slurmBetterLeaf is _topo_compare_switches for two leaves under one
// parent: one that fits the rest beats one that does not; of two that fit,
// the smaller; of two that do not, the larger. Ties keep the first.
func slurmBetterLeaf(a, b, rest int) bool {
	af, bf := a >= rest, b >= rest
	switch {
	case af && bf:
		return a < b
	case af != bf:
		return af
	}
	return a > b
}

func (c *cycle) leafOf(ni int32) int {
	if l := c.nodes[ni].leaf; l >= 0 {
		return int(l)
	}
	return c.leaves
}
