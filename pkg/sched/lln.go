package sched

import "slices"

// LLN (Partition.LLN, slurm.conf's LLN=YES) places a partition's jobs on
// its least loaded nodes: among the nodes that can take one node's share
// of the job now, those with the most idle CPUs, ties to node order, as
// select/cons_tres does for such a partition in Slurm 22.05 (the peer,
// three idle 64-CPU nodes: -n10 on the first, -n1 on the second, -n20 on
// the third, -N2 on the two with most CPUs left). Required (-w) nodes come
// first. It replaces every policy's own choice (Loam's best fit by GPUs,
// the baselines' consecutive runs) for that partition only; without the
// key nothing here runs, so plans are unchanged. Requests whose nodes need
// different shares keep the generic placement, as in slurmfit.go.

// placeLLN finds nodes for demand d in LLN partition p for a job ending
// at end that owns reservation own; nil when it does not fit.
func (c *cycle) placeLLN(p int32, d *demand, end tick, own int32) []pick {
	type idle struct {
		node int32
		cpus int
	}
	tier := c.parts[p].cfg.Tier
	var avail []idle
	for _, ni := range c.parts[p].nodes {
		if cd, ok := c.evalNode(p, ni, d, end, own); ok && cd.full {
			cpus, _ := c.nodeCPUFree(&c.nodes[ni], own, end, tier)
			avail = append(avail, idle{node: ni, cpus: c.capPartCPUs(p, ni, cpus)}) // maxcpus.go
		}
	}
	if len(avail) < d.n {
		return nil
	}
	chosen := make([]int32, 0, d.n)
	for _, ni := range d.nodeList {
		if !slices.ContainsFunc(avail, func(x idle) bool { return x.node == ni }) {
			return nil
		}
		chosen = append(chosen, ni)
	}
	slices.SortFunc(avail, func(a, b idle) int {
		if a.cpus != b.cpus {
			return b.cpus - a.cpus
		}
		return int(c.nodes[a.node].rank - c.nodes[b.node].rank)
	})
	for _, x := range avail {
		if len(chosen) == d.n {
			break
		}
		if !slices.Contains(d.nodeList, x.node) {
			chosen = append(chosen, x.node)
		}
	}
	if len(chosen) < d.n || !c.leavesOK(chosen, d) { // switches.go
		return nil
	}
	slices.SortFunc(chosen, func(a, b int32) int { return int(c.nodes[a].rank - c.nodes[b].rank) })
	return c.pickGPUs(p, chosen, d, end, own)
}
