package sched

// MaxCPUsPerNode (Partition.MaxCPUsPerNode, 0: none) bounds the CPUs the
// jobs of one partition hold on any one node together, as Slurm's
// partition key does: the classic use is a CPU partition over GPU nodes
// that leaves CPUs for the GPU jobs. A job asking more on one node than
// the bound waits with PartitionConfig (the peer's -n20 under
// MaxCPUsPerNode=16), one that fits the bound but not beside the
// partition's running jobs waits for Resources. Without the key nothing
// here runs, so plans are unchanged.

// maxCPUsReason is PartitionConfig when one node's share of d is more
// than p's bound.
func maxCPUsReason(p *partInfo, d *demand) Reason {
	limit := p.cfg.MaxCPUsPerNode
	if limit <= 0 || d.excl {
		return ""
	}
	if d.c > limit || d.lc > limit {
		return ReasonPartitionConfig
	}
	return ""
}

// capPartCPUs bounds the free CPUs of node ni, for a job of partition p,
// by what p's MaxCPUsPerNode leaves beside the partition's jobs running
// there (started in this cycle included). The bound is on the node as it
// is now, for later starts too: a planned start is never later than the
// bound allows, at worst earlier than it will be.
func (c *cycle) capPartCPUs(p int32, ni int32, cpus int) int {
	limit := c.parts[p].cfg.MaxCPUsPerNode
	if limit <= 0 {
		return cpus
	}
	left := limit
	for _, nr := range c.nodes[ni].runs {
		if c.runs[nr.r].part == p {
			left -= nr.cpus
		}
	}
	return max(min(cpus, left), 0)
}
