package controller

// cpuBoundNodes is the fewest nodes a pending job's CPUs fit on, as
// slurmctld counts them for its node count: the CPUs over the largest
// node of its partitions, rounded up, never more nodes than tasks (the
// peer, with 64-CPU nodes, shows -n65 as 2 nodes, -n10 -c10 as 2, -n129
// as 3, and -c70 alone as 1). 0 without -n above 1.
func (c *Controller) cpuBoundNodes(r *jobRecord, cpus int) int {
	q := r.Req
	if q.NTasks <= 1 || cpus <= 1 {
		return 0
	}
	largest := c.largestNodeCPUs(r.St.Partitions)
	if largest <= 0 || cpus <= largest {
		return 0
	}
	return min(q.NTasks, (cpus+largest-1)/largest)
}

// largestNodeCPUs is the CPU count of the largest node in the partitions.
func (c *Controller) largestNodeCPUs(parts []string) int {
	cs := c.confNow()
	largest := 0
	for _, name := range parts {
		p, ok := cs.parts[name]
		if !ok {
			continue
		}
		for _, n := range p.Nodes {
			if nc, ok := cs.conf.Node(n); ok {
				largest = max(largest, nc.CPUs)
			}
		}
	}
	return largest
}
