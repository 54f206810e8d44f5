package controller

import (
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// setPartLimits applies scontrol's OverTimeLimit, DisableRootJobs,
// DefMemPerNode, MaxMemPerCPU, MaxCPUsPerNode, ExclusiveUser, RootOnly,
// ReqResv and AllocNodes to p. scontrol checked the values' form; an
// AllocNodes that is not a host list is refused here.
func setPartLimits(p *slurmconf.Partition, l *api.PartitionLimits) *api.Error {
	if l.AllocNodes != nil {
		hosts, err := slurmconf.ParseAllocNodes(*l.AllocNodes)
		if err != nil {
			return api.Errorf(api.CodeBadRequest, "AllocNodes=%s: %v", *l.AllocNodes, err)
		}
		p.AllocNodes, p.AllocNodesSpec = hosts, *l.AllocNodes
		if hosts == nil {
			p.AllocNodesSpec = ""
		}
	}
	if l.OverTimeLimit != nil {
		p.OverTimeLimit = time.Duration(*l.OverTimeLimit) * time.Minute
		if *l.OverTimeLimit == api.UnlimitedSeconds || *l.OverTimeLimit < 0 {
			p.OverTimeLimit = slurmtime.Unlimited
		}
	}
	setBool(&p.DisableRootJobs, l.DisableRootJobs)
	setBool(&p.ExclusiveUser, l.ExclusiveUser)
	setBool(&p.RootOnly, l.RootOnly)
	setBool(&p.ReqResv, l.ReqResv)
	if l.MaxCPUsPerNode != nil {
		p.MaxCPUsPerNode = *l.MaxCPUsPerNode
		if p.MaxCPUsPerNode < 0 {
			p.MaxCPUsPerNode = slurmconf.Unlimited
		}
	}
	// A per-node default replaces the per-CPU one and the reverse, as on
	// a slurm.conf line; the value is then the partition's own.
	if l.DefMemPerNode != nil {
		p.DefMemPerNode, p.DefMemPerCPU = max(*l.DefMemPerNode, 0), 0
		p.InheritedMemory = ownMemory(p.InheritedMemory, "DefMemPerNode", "DefMemPerCPU")
	}
	if l.MaxMemPerCPU != nil {
		p.MaxMemPerCPU, p.MaxMemPerNode = max(*l.MaxMemPerCPU, 0), slurmconf.Unlimited
		p.InheritedMemory = ownMemory(p.InheritedMemory, "MaxMemPerCPU", "MaxMemPerNode")
	}
	return nil
}

func setBool(dst *bool, v *bool) {
	if v != nil {
		*dst = *v
	}
}

// ownMemory is inherited less keys: a copy, never the shared slice.
func ownMemory(inherited []string, keys ...string) []string {
	return slices.DeleteFunc(slices.Clone(inherited), func(k string) bool { return slices.Contains(keys, k) })
}
