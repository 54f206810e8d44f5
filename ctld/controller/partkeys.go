package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// Partition keys of GPU clusters at submit: RootOnly refuses other users'
// jobs; DefCPUPerGPU gives a GPU job without -c or --cpus-per-gpu its
// CPUs per GPU; ExclusiveUser=YES makes the job share its nodes with the
// same user's jobs only (as --exclusive=user). MaxCPUsPerNode is the
// scheduler's (pkg/sched/maxcpus.go).

// checkRootOnly drops the RootOnly partitions of a job not submitted by
// root; none left is Slurm's ESLURM_ACCESS_DENIED, the peer's
// "Access/permission denied" (a job of -p a,b pends in the other).
func checkRootOnly(cs *confState, a *admitted) *api.Error {
	if a.req.UserID == 0 {
		return nil
	}
	refused := &api.Error{Code: api.CodeAccessDenied, Message: api.NewError(api.CodeAccessDenied).Message, NoID: true}
	return narrow(a, func(p *slurmconf.Partition) *api.Error {
		if p.RootOnly {
			return refused
		}
		return nil
	}, cs)
}

// applyPartKeys applies the first partition's DefCPUPerGPU (else the
// cluster's) and ExclusiveUser to a submission. Slurm sets the CPUs per
// GPU when it first tries to schedule the job; Loam sets them at submit,
// so a held job shows them too (the peer's shows none until released).
func applyPartKeys(cs *confState, a *admitted) {
	var p *slurmconf.Partition
	if len(a.partitions) > 0 {
		p, _ = cs.conf.Partition(a.partitions[0])
	}
	r := a.req
	if def := cs.conf.CPUsPerGPUDefault(p); def > 0 && r.CPUsPerGPU == 0 && r.CPUsPerTask == 0 && requestedGPUs(r, 1) > 0 {
		r.CPUsPerGPU, r.CPUsPerGPUDefault = int(def), true
	}
	if p != nil && p.ExclusiveUser && r.Exclusive == "" {
		r.Exclusive = job.ExclusiveUser
	}
}
