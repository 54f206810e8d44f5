package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// Billing: the billing TRES a job's TRES strings show (scontrol, squeue
// -O tres-*, sacct ReqTRES/AllocTRES) is priced by its partition's
// TRESBillingWeights, as slurmctld prices it. It is display and
// accounting only: fair share, quotas and sshare's usage count GPU time.

// setBilling sets t's billing TRES as partition part prices t's other
// TRES (memory in MB; GPUs only when tracked, as in t).
func setBilling(conf *slurmconf.Config, t *resource.TRES, part string) {
	var w slurmconf.BillingWeights
	if p, ok := conf.Partition(part); ok {
		w = p.Billing
	}
	t.Set(resource.TRESBilling, w.Bill(t.Get, conf.BillingMaxTRES))
}

// jobPartition is the partition that prices r: the one it runs in, else
// the first it may run in.
func jobPartition(r *jobRecord) string {
	if r.St.Partition == "" && len(r.St.Partitions) > 0 {
		return r.St.Partitions[0]
	}
	return r.St.Partition
}

// partBilling sets ap's TRESBillingWeights and, when p has weights, the
// billing its TRES= shows: its CPUs, memory, nodes and tracked GPUs priced.
func partBilling(conf *slurmconf.Config, p *slurmconf.Partition, ap *api.Partition) {
	if len(p.Billing.Weights) == 0 {
		return
	}
	ap.TRESBillingWeights = p.Billing.Text
	var t resource.TRES
	var mem int64
	for _, name := range p.Nodes {
		if nc, ok := conf.Node(name); ok {
			mem += nc.RealMemory
		}
	}
	cpus := ap.EffectiveCPUs
	if cpus == 0 {
		cpus = ap.TotalCPUs
	}
	t.Set(resource.TRESCPU, int64(cpus))
	t.Set(resource.TRESMem, mem)
	t.Set(resource.TRESNode, int64(ap.TotalNodes))
	gpus, _ := resource.ParseTRES(ap.GRESTRES) // "" or "gres/gpu=16"
	for _, g := range gpus {
		t.Set(g.Name, g.Count)
	}
	ap.Billing = p.Billing.Bill(t.Get, conf.BillingMaxTRES)
}
