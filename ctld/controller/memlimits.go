package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/cluster"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// Memory limits from slurm.conf (cluster keys, partition keys over them):
// DefMemPerCPU or DefMemPerNode is the memory of a job that asks none;
// MaxMemPerCPU raises a job's CPUs at submit until its memory per CPU
// fits, as slurmctld does; MaxMemPerNode makes a job asking more per node
// wait as MaxMemPerLimit (the scheduler's check, pkg/sched), or, with
// EnforcePartLimits, refuses it at submit.

// defaultMemory is partition part's default memory: MB per CPU or per
// node, at most one non-zero.
func defaultMemory(conf *slurmconf.Config, part string) (perCPU, perNode int64) {
	var p *slurmconf.Partition
	if q, ok := conf.Partition(part); ok {
		p = q
	}
	perCPU, perNode = conf.DefaultMemory(p)
	if perCPU == slurmconf.Unlimited {
		perCPU = 0
	}
	if perNode == slurmconf.Unlimited {
		perNode = 0
	}
	return perCPU, perNode
}

// defaultMemPerNode is the DefMemPerNode a job without any memory option
// gets (scontrol's MinMemoryNode), 0 when a per-CPU or per-GPU default
// applies instead.
func (c *Controller) defaultMemPerNode(r *jobRecord) int64 {
	q := r.Req
	if q.MemPerNode != nil || q.MemPerCPU != nil || q.MemPerGPU != nil {
		return 0
	}
	conf := c.confNow().conf
	defGPU := conf.DefMemPerGPU
	if p, ok := conf.Partition(r.St.Partition); ok {
		defGPU = p.DefMemPerGPU
	}
	if defGPU > 0 && requestedGPUs(q, 1) > 0 {
		return 0
	}
	_, perNode := defaultMemory(conf, r.St.Partition)
	return perNode
}

// applyMemLimits fits a submission to its first partition's MaxMemPerCPU,
// as slurmctld does at submit: --mem-per-cpu over the limit multiplies -c
// by the ratio (rounded up) and divides the memory per CPU by it (the
// peer's --mem-per-cpu=5000 -c2 under MaxMemPerCPU=2000 shows CPUs/Task=6
// MinMemoryCPU=1667M); --mem over the limit times the CPUs raises
// --mincpus (the peer's --mem=8000 runs on 4 CPUs).
func applyMemLimits(cs *confState, a *admitted) {
	if len(a.partitions) == 0 {
		return
	}
	p, ok := cs.conf.Partition(a.partitions[0])
	if !ok {
		return
	}
	maxCPU, _ := cs.conf.MemoryMaximum(p)
	if maxCPU <= 0 || maxCPU == slurmconf.Unlimited {
		return
	}
	r := a.req
	switch {
	case r.MemPerCPU != nil && *r.MemPerCPU > maxCPU:
		ratio := ceilDiv(*r.MemPerCPU, maxCPU)
		mem := ceilDiv(*r.MemPerCPU, ratio)
		r.CPUsPerTask = max(r.CPUsPerTask, 1) * int(ratio)
		r.MemPerCPU = &mem
	case r.MemPerNode != nil && *r.MemPerNode > 0:
		if need := int(ceilDiv(*r.MemPerNode, maxCPU)); need > r.MinCPUs {
			r.MinCPUs = need
		}
	}
}

func ceilDiv(a, b int64) int64 {
	return (a + b - 1) / b
}

// memLimitCode is EnforcePartLimits' refusal of a job asking more memory
// per node than p's MaxMemPerNode: the peer's "Memory required by task is
// not available".
func memLimitCode(cs *confState, a *admitted, p *slurmconf.Partition) api.Code {
	_, maxNode := cs.conf.MemoryMaximum(p)
	if maxNode <= 0 {
		return ""
	}
	if s, err := cluster.ShapeOf(a.req, cs.conf, p); err == nil && s.LimitMem > maxNode {
		return api.CodeInvalidTaskMemory
	}
	return ""
}
