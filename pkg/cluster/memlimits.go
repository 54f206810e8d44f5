package cluster

import (
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// limitMemory is the memory per node slurmctld compares with a
// partition's MaxMemPerNode: --mem (--mem=0: the partition's smallest
// node, all of it), else --mem-per-cpu (or DefMemPerCPU) times the CPUs
// one node must give: -c or --mincpus, not the tasks a node holds (on the
// peer -n2 --mem-per-cpu=3000 runs under MaxMemPerNode=4000, while
// --mem-per-cpu=5000 waits as MaxMemPerLimit).
func limitMemory(s *sched.Shape, req *job.Request, cpt int, cfg *slurmconf.Config, part *slurmconf.Partition) int64 {
	switch {
	case req.MemPerNode != nil && *req.MemPerNode == 0:
		return smallestMemory(cfg, part)
	case s.MemPerNode > 0:
		return s.MemPerNode
	case s.MemPerCPU > 0:
		return s.MemPerCPU * int64(max(cpt, req.MinCPUs, 1))
	}
	return 0
}

// maxMemPerNode is p's MaxMemPerNode for the scheduler, 0 for none
// (a partition with MaxMemPerCPU has none: the controller fits the
// job's CPUs to that limit at submit).
func maxMemPerNode(p slurmconf.Partition) int64 {
	if p.MaxMemPerCPU > 0 || p.MaxMemPerNode == slurmconf.Unlimited || p.MaxMemPerNode < 0 {
		return 0
	}
	return p.MaxMemPerNode
}
