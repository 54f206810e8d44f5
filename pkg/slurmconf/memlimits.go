package slurmconf

// Memory limits in pairs, as Slurm reads them: DefMemPerCPU or
// DefMemPerNode is the memory a job without --mem, --mem-per-cpu or
// --mem-per-gpu gets; MaxMemPerCPU or MaxMemPerNode bounds what a job may
// ask. In each pair the per-CPU key wins when both are written (Slurm
// reads it first and skips the other). A partition that writes neither
// key of a pair keeps the cluster's pair; one that writes either replaces
// both.

// decodeMemLimits reads the cluster's DefMemPerNode and MaxMemPerCPU
// after DefMemPerCPU and MaxMemPerNode.
func decodeMemLimits(x *dec, c *Config) {
	c.DefMemPerNode, c.MaxMemPerCPU = 0, 0
	x.memory("DefMemPerNode", &c.DefMemPerNode)
	x.memory("MaxMemPerCPU", &c.MaxMemPerCPU)
	c.DefMemPerCPU, c.DefMemPerNode = memPair(x, "DefMemPerCPU", "DefMemPerNode", c.DefMemPerCPU, c.DefMemPerNode, 0)
	c.MaxMemPerCPU, c.MaxMemPerNode = memPair(x, "MaxMemPerCPU", "MaxMemPerNode", c.MaxMemPerCPU, c.MaxMemPerNode, Unlimited)
}

// decodePartMemLimits reads a partition's pairs over the cluster's,
// which p already holds.
func decodePartMemLimits(x *dec, p *Partition) {
	x.memory("DefMemPerNode", &p.DefMemPerNode)
	x.memory("MaxMemPerCPU", &p.MaxMemPerCPU)
	p.DefMemPerCPU, p.DefMemPerNode = memPair(x, "DefMemPerCPU", "DefMemPerNode", p.DefMemPerCPU, p.DefMemPerNode, 0)
	p.MaxMemPerCPU, p.MaxMemPerNode = memPair(x, "MaxMemPerCPU", "MaxMemPerNode", p.MaxMemPerCPU, p.MaxMemPerNode, Unlimited)
}

// memPair settles one pair on the line x reads: a written per-CPU key
// (UNLIMITED or 0 included) clears the per-node one to nodeUnset, a
// written per-node key alone clears the per-CPU one; with neither written
// both stay (inherited). Both written: the per-node key is ignored, with a
// warning.
func memPair(x *dec, cpuKey, nodeKey string, cpu, node, nodeUnset int64) (int64, int64) {
	fc, cpuSet := x.get(cpuKey)
	_, nodeSet := x.get(nodeKey)
	if cpu == Unlimited {
		cpu = 0
	}
	switch {
	case cpuSet && nodeSet:
		x.d.warnf(fc.Pos, x.rec, nodeKey, "both %s and %s are set: %s is ignored, as in Slurm", cpuKey, nodeKey, nodeKey)
		return cpu, nodeUnset
	case cpuSet:
		return cpu, nodeUnset
	case nodeSet:
		if node == 0 && nodeUnset == Unlimited {
			node = Unlimited // MaxMemPerNode=0: no limit
		}
		return 0, node
	}
	return cpu, node
}

// DefaultMemory is the memory a job without a memory option gets in
// partition p (the cluster's without one): MB per CPU or MB per node,
// at most one of them non-zero. DefMemPerGPU is the caller's.
func (c *Config) DefaultMemory(p *Partition) (perCPU, perNode int64) {
	if p != nil {
		return p.DefMemPerCPU, p.DefMemPerNode
	}
	return c.DefMemPerCPU, c.DefMemPerNode
}

// MemoryMaximum is the most memory a job may ask in partition p (the
// cluster's without one): MB per CPU, else MB per node; 0 for no limit.
func (c *Config) MemoryMaximum(p *Partition) (perCPU, perNode int64) {
	cpu, node := c.MaxMemPerCPU, c.MaxMemPerNode
	if p != nil {
		cpu, node = p.MaxMemPerCPU, p.MaxMemPerNode
	}
	if node == Unlimited || node < 0 {
		node = 0
	}
	return cpu, node
}
