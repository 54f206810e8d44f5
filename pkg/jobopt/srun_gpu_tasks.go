package jobopt

import (
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// checkTasksPerGPUAlone is the peer's refusal of srun --ntasks-per-gpu
// for a new allocation that asks for no GPU: with neither -n nor a fixed
// -N, the controller's gres_job_state_validate line then the GRES
// refusal (exit 1). A fixed -N runs a task a node, a GPU for every
// --ntasks-per-gpu of them: the peer runs -N2 --ntasks-per-gpu=1 on 2
// GPUs and refuses -N1 or -N3 --ntasks-per-gpu=2 with the GRES refusal
// alone; -N2 --ntasks-per-gpu=2 (one GPU for two nodes) it allocates and
// then cannot start, which Loam refuses as the others. With -n the peer
// derives the GPU count from the tasks, and inside an allocation only the
// controller knows whether the job holds GPUs: neither is refused here.
func (b *builder) checkTasksPerGPUAlone(st *srunState) error {
	if b.tasksPerGPU <= 0 || b.p.prog() != "srun" || st.JobID != 0 || requestsGPU(&b.req) {
		return nil
	}
	r := &b.req
	if _, tasks := b.passed["ntasks"]; tasks {
		if r.NTasks%b.tasksPerGPU != 0 { // the peer's srun -n3 --ntasks-per-gpu=2
			return b.exitError("Failed to validate job spec, -n/--ntasks has to be a multiple of --ntasks-per-gpu.", job.MsgInvalidGRES)
		}
		return nil
	}
	if !fixedNodes(r) {
		return b.exitError("gres_job_state_validate: --ntasks-per-tres needs either a GRES GPU specification "+
			"or a node/ntask specification", job.MsgInvalidGRES)
	}
	if n := r.MinNodes; n%b.tasksPerGPU != 0 || n/b.tasksPerGPU < n {
		return b.exitError(job.MsgInvalidGRES)
	}
	r.NTasks = r.MinNodes
	return nil
}

// checkTasksPerGPUBatch is sbatch's and salloc's check of
// --ntasks-per-gpu without a GPU option (gres_job_state_validate, run
// by the client as it builds the job): the tasks, from -n or a fixed -N,
// set the GPUs, so without them it is the peer's two lines, and -n must
// be a multiple of it (the peer refuses -n3 --ntasks-per-gpu=2 and
// -N2-3 --ntasks-per-gpu=2, takes -N3 and -n4; exit 1).
func (b *builder) checkTasksPerGPUBatch() error {
	r := &b.req
	if b.tasksPerGPU <= 0 || b.p.prog() == "srun" || requestsGPU(r) {
		return nil
	}
	switch {
	case r.NTasks > 0 && r.NTasks%b.tasksPerGPU != 0:
		return b.exitError("Failed to validate job spec, -n/--ntasks has to be a multiple of --ntasks-per-gpu.", job.MsgInvalidGRES)
	case r.NTasks <= 0 && !fixedNodes(r):
		return b.exitError("gres_job_state_validate: --ntasks-per-tres needs either a GRES GPU specification "+
			"or a node/ntask specification", job.MsgInvalidGRES)
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
