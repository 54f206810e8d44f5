package jobopt

import (
	"fmt"
	"strconv"
	"strings"
)

// verifyNTasksPerGPU applies Slurm's _validate_ntasks_per_gpu for every
// command: with --ntasks-per-gpu given (or SLURM_NTASKS_PER_GPU), options
// that fix the tasks' GPUs or nodes otherwise are fatal, in Slurm's
// order and worded by where they came from (the peer: "sbatch: fatal:
// --gpus-per-task is mutually exclusive with --ntasks-per-gpu and
// SLURM_NTASKS_PER_GPU", exit 1).
func (b *builder) verifyNTasksPerGPU() error {
	gpu, perGPU := b.passed["ntasks-per-gpu"]
	tres, perTRES := b.passed["ntasks-per-tres"]
	if !perGPU && !perTRES {
		return nil
	}
	if perGPU && perTRES && gpu.src != fromEnv && tres.src != fromEnv {
		g, _ := strconv.Atoi(strings.TrimSpace(gpu.str)) // both read as numbers already
		t, _ := strconv.Atoi(strings.TrimSpace(tres.str))
		if g != t {
			// The trailing blank is Slurm's.
			return b.fatal(fmt.Sprintf("Inconsistent values set to --ntasks-per-gpu=%d and --ntasks-per-tres=%d ", g, t))
		}
	}
	for _, o := range []struct{ long, env string }{
		{"gpus-per-task", "SLURM_GPUS_PER_TASK"},
		{"gpus-per-socket", "SLURM_GPUS_PER_SOCKET"},
		{"ntasks-per-node", "SLURM_NTASKS_PER_NODE"},
	} {
		v, ok := b.passed[o.long]
		if !ok {
			continue
		}
		name := "--" + o.long
		if v.src == fromEnv {
			name = o.env
		}
		return b.fatal(name + " is mutually exclusive with --ntasks-per-gpu and SLURM_NTASKS_PER_GPU")
	}
	return nil
}
