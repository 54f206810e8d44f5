package controller

import (
	"slices"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// setPartLimits applies scontrol's OverTimeLimit, DisableRootJobs,
// DefMemPerNode, MaxMemPerCPU, DefMemPerCPU, MaxMemPerNode, MaxCPUsPerNode, ExclusiveUser, RootOnly,
// ReqResv, AllocNodes and CpuBind to p. scontrol checked the values' form; an
// AllocNodes that is not a host list is refused here.
func setPartLimits(p *slurmconf.Partition, l *api.PartitionLimits) *api.Error {
	if aerr := checkCPUBind(l.CPUBind); aerr != nil { // step_cpubind.go
		return aerr
	}
	if l.CPUBind != nil {
		p.CPUBind = updatedCPUBind(p.CPUBind, *l.CPUBind)
	}
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
	if l.DefMemPerCPU != nil {
		p.DefMemPerCPU, p.DefMemPerNode = max(*l.DefMemPerCPU, 0), 0
		p.InheritedMemory = ownMemory(p.InheritedMemory, "DefMemPerCPU", "DefMemPerNode")
	}
	if l.MaxMemPerNode != nil {
		p.MaxMemPerNode, p.MaxMemPerCPU = max(*l.MaxMemPerNode, 0), 0
		if p.MaxMemPerNode == 0 {
			p.MaxMemPerNode = slurmconf.Unlimited
		}
		p.InheritedMemory = ownMemory(p.InheritedMemory, "MaxMemPerNode", "MaxMemPerCPU")
	}
	return nil
}

// setPartPolicy applies AllowQos=, DenyQos=, PreemptMode=, JobDefaults=
// and TRESBillingWeights=, refusing what slurmctld refuses with its words.
// JobDefaults replaces the partition's whole list, as in Slurm: a
// DefMemPerGPU it lacks falls back to the cluster's.
func setPartPolicy(conf *slurmconf.Config, p *slurmconf.Partition, l *api.PartitionLimits) *api.Error {
	if l.AllowQOS != nil {
		p.AllowQOS = qosList(*l.AllowQOS)
	}
	if l.DenyQOS != nil {
		p.DenyQOS = qosList(*l.DenyQOS)
	}
	if l.PreemptMode != nil {
		mode, ok := slurmconf.ParsePreemptMode(*l.PreemptMode)
		if !ok {
			return api.Errorf(api.CodeBadRequest, "PreemptMode=%s", *l.PreemptMode)
		}
		p.PreemptMode = mode
	}
	if l.JobDefaults != nil {
		d, err := slurmconf.ParseJobDefaults(*l.JobDefaults)
		if err != nil {
			return api.Errorf(api.CodeInvalidJobDefaults, "%v", err)
		}
		p.DefCPUPerGPU = d.CPUPerGPU
		if d.MemPerGPU > 0 {
			p.DefMemPerGPU = d.MemPerGPU
			p.InheritedMemory = ownMemory(p.InheritedMemory, "DefMemPerGPU")
		} else if !slices.Contains(p.InheritedMemory, "DefMemPerGPU") {
			p.DefMemPerGPU = conf.DefMemPerGPU
			p.InheritedMemory = append(slices.Clone(p.InheritedMemory), "DefMemPerGPU")
		}
	}
	if l.BillingWeights != nil {
		p.Billing = slurmconf.BillingWeights{} // empty: every job is billed its CPUs again
		if *l.BillingWeights != "" {
			w, err := slurmconf.ParseBillingWeights(*l.BillingWeights)
			if err != nil {
				return api.Errorf(api.CodeInvalidBillingWeights, "%v", err)
			}
			p.Billing = w
		}
	}
	return nil
}

// qosList is AllowQos=/DenyQos='s list; ALL or nothing is every QOS.
func qosList(v string) []string {
	var out []string
	for _, q := range strings.Split(v, ",") {
		if q == "" {
			continue
		}
		if strings.EqualFold(q, "ALL") {
			return nil
		}
		out = append(out, q)
	}
	return out
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
