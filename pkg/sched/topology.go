package sched

import "slices"

// pickLeaves chooses n of nodes (in preference order) on as few leaf
// switches as possible, as Slurm's topology/tree does: if one leaf can hold
// the whole job, the leaf with the fewest suitable nodes (best fit, so big
// leaves stay whole for bigger jobs); otherwise the leaves with the most
// suitable nodes first. Within the chosen leaves, preference order decides.
// Nodes outside the topology count as one more leaf.
func (c *cycle) pickLeaves(nodes []int32, n int) []int32 {
	if c.leaves == 0 || n <= 1 || len(nodes) == n {
		return slices.Clone(nodes[:n])
	}
	count := make([]int, c.leaves+1)
	first := make([]int, c.leaves+1)
	for i := range first {
		first[i] = -1
	}
	for i, ni := range nodes {
		l := c.leafOf(ni)
		count[l]++
		if first[l] < 0 {
			first[l] = i
		}
	}
	leaves := make([]int, 0, len(count))
	for l := range count {
		if count[l] > 0 {
			leaves = append(leaves, l)
		}
	}
	best := -1
	for _, l := range leaves {
		if count[l] >= n && (best < 0 || count[l] < count[best] || (count[l] == count[best] && first[l] < first[best])) {
			best = l
		}
	}
	take := make([]int, c.leaves+1)
	if best >= 0 {
		take[best] = n
	} else {
		slices.SortFunc(leaves, func(a, b int) int {
			if count[a] != count[b] {
				return count[b] - count[a]
			}
			return first[a] - first[b]
		})
		left := n
		for _, l := range leaves {
			if left == 0 {
				break
			}
			take[l] = min(count[l], left)
			left -= take[l]
		}
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

func (c *cycle) leafOf(ni int32) int {
	if l := c.nodes[ni].leaf; l >= 0 {
		return int(l)
	}
	return c.leaves
}
