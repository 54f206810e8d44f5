package jobopt

import "github.com/loamhpc/loam/pkg/job"

// checkTasksPerGPUAlone is the peer's refusal of srun --ntasks-per-gpu
// for a new allocation that asks for no GPU: with neither -n nor -N,
// the controller's gres_job_state_validate line then the GRES refusal;
// with -N alone the GRES refusal only (both exit 1). With -n the peer
// derives the GPU count from the tasks, and inside an allocation only the
// controller knows whether the job holds GPUs: neither is refused here.
func (b *builder) checkTasksPerGPUAlone(st *srunState) error {
	if b.tasksPerGPU <= 0 || b.p.prog() != "srun" || st.JobID != 0 || requestsGPU(&b.req) {
		return nil
	}
	_, tasks := b.passed["ntasks"]
	_, nodes := b.passed["nodes"]
	switch {
	case !tasks && !nodes:
		return b.exitError("gres_job_state_validate: --ntasks-per-tres needs either a GRES GPU specification "+
			"or a node/ntask specification", job.MsgInvalidGRES)
	case !tasks:
		return b.exitError(job.MsgInvalidGRES)
	}
	return nil
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
