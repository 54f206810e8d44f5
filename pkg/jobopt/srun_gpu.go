package jobopt

import (
	"errors"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"strconv"
	"strings"
)

// checkGPUBind is srun's check of --gpu-bind: an optional "verbose,"
// first, then one binding. The peer refuses "verbose" or "quiet" alone,
// "quiet,none" and "v,none" (only the word verbose, and only first, is
// taken), with "Invalid --gpu-bind argument: gpu:VALUE". Slurm's check
// (job.ValidTresBind, also the controller's on TresBind=) comes first;
// Loam then refuses what its steps could not bind with, such as "cxyz"
// or "map_gpu:", which Slurm takes.
func checkGPUBind(spec string) error {
	if !job.ValidTresBind("gpu:" + spec) {
		return errors.New("invalid binding")
	}
	bind := spec
	if len(bind) >= len("verbose,") && strings.EqualFold(bind[:len("verbose,")], "verbose,") {
		bind = bind[len("verbose,"):]
	}
	kind, _, _ := strings.Cut(strings.Split(bind, ",")[0], ":")
	switch strings.ToLower(kind) {
	case "", "verbose", "v", "quiet", "q":
		return errNoBinding
	}
	return checkBind(spec, gpuBinds)
}

// errNoBinding is a --gpu-bind without a binding.
var errNoBinding = errors.New("no binding")

// verifyTasksPerGPU applies srun's rules for --ntasks-per-gpu: it excludes
// --gpus-per-task, --gpus-per-socket and --ntasks-per-node
// (verifyNTasksPerGPU), and without --gpu-bind it binds each run of N
// tasks to one GPU: the peer's srun -n4 --gpus=2 --ntasks-per-gpu=2 gives
// SLURMD_TRES_BIND=gpu:single:2 and tasks 0,1 GPU 0, tasks 2,3 GPU 1.
func (b *builder) verifyTasksPerGPU(st *srunState) error {
	if b.tasksPerGPU <= 0 {
		return nil
	}
	if err := b.verifyNTasksPerGPU(); err != nil { // ntasks_per_gpu.go
		return err
	}
	if st.GPUBind == "" {
		st.GPUBind = "single:" + strconv.Itoa(b.tasksPerGPU)
	}
	st.TasksPerGPU = b.tasksPerGPU
	// A step in a job derives its GPUs from -n when it asks for none
	// (gres_step_state_validate): -n not a multiple of --ntasks-per-gpu
	// is refused by srun itself, as the peer's -n1 --ntasks-per-gpu=2.
	if st.JobID != 0 && b.req.NTasks > 0 && b.req.NTasks%b.tasksPerGPU != 0 && !countsGPUs(&b.req) {
		return b.exitError(job.MsgInvalidGRES)
	}
	return nil
}

// countsGPUs reports a GPU option with a count: --gres=gpu:0 asks for
// none, so a step derives its GPUs from -n as without it.
func countsGPUs(r *job.Request) bool {
	return resource.GPUCount(r.GPUs)+resource.GPUCount(r.GPUsPerNode)+resource.GPUCount(r.GPUsPerTask)+resource.GPUCount(r.GRES) > 0
}
