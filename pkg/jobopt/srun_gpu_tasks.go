package jobopt

import (
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// The client's GRES validation lines for --ntasks-per-gpu without a GPU
// option (gres_job_state_validate).
const (
	msgTasksPerGPUNoCount     = "gres_job_state_validate: --ntasks-per-tres needs either a GRES GPU specification or a node/ntask specification"
	msgTasksPerGPUNotMultiple = "Failed to validate job spec, -n/--ntasks has to be a multiple of --ntasks-per-gpu."
)

// tasksPerGPUUncounted reports --ntasks-per-gpu with no GPU option and
// nothing to count tasks from: neither -n nor a fixed -N.
func (b *builder) tasksPerGPUUncounted() bool {
	r := &b.req
	return b.tasksPerGPU > 0 && !requestsGPU(r) && r.NTasks == 0 && !fixedNodes(r)
}

// tasksPerGPUDetail is the line the client's GRES validation refuses
// --ntasks-per-gpu with no GPU option with: no task count, or an -n that
// is not a multiple of it; "" when neither.
func (b *builder) tasksPerGPUDetail() string {
	switch {
	case b.tasksPerGPUUncounted():
		return msgTasksPerGPUNoCount
	case b.tasksPerGPU > 0 && !requestsGPU(&b.req) && b.req.NTasks%b.tasksPerGPU != 0:
		return msgTasksPerGPUNotMultiple
	}
	return ""
}

// checkTasksPerGPUAlone is the peer's refusal of srun --ntasks-per-gpu
// for a new allocation that asks for no GPU: with neither -n nor a fixed
// -N, the controller's gres_job_state_validate line then the GRES
// refusal (exit 1), and so for an -n that is not a multiple of it. A
// fixed -N runs a task a node, a GPU for every --ntasks-per-gpu of them:
// the peer runs -N2 --ntasks-per-gpu=1 on 2 GPUs and refuses -N1 or -N3
// --ntasks-per-gpu=2 with the GRES refusal alone; -N2 --ntasks-per-gpu=2
// (one GPU for two nodes) it allocates and then cannot start, which Loam
// refuses as the others. With -n the peer derives the GPU count from the
// tasks, and inside an allocation only the controller knows whether the
// job holds GPUs: neither is refused here.
func (b *builder) checkTasksPerGPUAlone(st *srunState) error {
	if b.tasksPerGPU <= 0 || b.p.prog() != "srun" || st.JobID != 0 || requestsGPU(&b.req) {
		return nil
	}
	if d := b.tasksPerGPUDetail(); d != "" {
		return b.exitError(d, job.MsgInvalidGRES)
	}
	r := &b.req
	if r.NTasks > 0 {
		return nil
	}
	if n := r.MinNodes; n%b.tasksPerGPU != 0 || n/b.tasksPerGPU < n {
		return b.exitError(job.MsgInvalidGRES)
	}
	r.NTasks = r.MinNodes
	return nil
}

// checkTasksPerGPUBatch is sbatch's and salloc's check of
// --ntasks-per-gpu without a GPU option (the peer refuses -n3
// --ntasks-per-gpu=2 and -N2-3 --ntasks-per-gpu=2, takes -N3 and -n4;
// exit 1).
func (b *builder) checkTasksPerGPUBatch() error {
	if b.p.prog() == "srun" {
		return nil
	}
	if d := b.tasksPerGPUDetail(); d != "" {
		return b.exitError(d, job.MsgInvalidGRES)
	}
	return nil
}

// fixedNodes reports a node count sbatch takes as the task count: -N
// (or -w) without a range.
func fixedNodes(r *job.Request) bool {
	return r.NodesSet && r.MinNodes > 0 && (r.MaxNodes == 0 || r.MaxNodes == r.MinNodes)
}

// requestsGPU tells whether r asks for GPUs in any form.
func requestsGPU(r *job.Request) bool {
	if len(r.GPUs)+len(r.GPUsPerNode)+len(r.GPUsPerTask) > 0 {
		return true
	}
	for _, g := range r.GRES {
		if g.Name == "gpu" {
			return true
		}
	}
	return false
}

// deriveTasksPerGPU gives --ntasks-per-gpu with no GPU option a GPU for
// every N tasks of -n, as the peer does: sbatch -n4 --ntasks-per-gpu=2
// runs on two GPUs, srun -n4 --ntasks-per-gpu=2 too (tasks 0,1
// CUDA_VISIBLE_DEVICES=0, tasks 2,3 =1). sbatch and salloc with a fixed
// -N and no -n run N tasks on each node's one GPU (the peer's -N3
// --ntasks-per-gpu=3: 9 tasks, gpu:3, one a node). srun does so without
// -n too: inside an allocation the step then asks for those GPUs, so a
// job without GPUs refuses it as the peer does ("Step requested GRES but
// job doesn't have GRES", then the GRES refusal, status 1).
func (b *builder) deriveTasksPerGPU() {
	if b.tasksPerGPU <= 0 || requestsGPU(&b.req) {
		return
	}
	if b.p.prog() != "srun" && b.req.NTasks <= 0 {
		if !fixedNodes(&b.req) {
			return
		}
		b.req.NTasks = b.req.MinNodes * b.tasksPerGPU
	}
	n := int64(max(b.req.NTasks, 1))
	per := int64(b.tasksPerGPU)
	b.req.GPUs = []resource.GRES{{Name: "gpu", Count: (n + per - 1) / per}}
	b.req.GPUsFromTasks = true
}
