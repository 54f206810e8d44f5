package jobopt

// verifyNTasksPerGPU applies Slurm's _validate_ntasks_per_gpu for every
// command: with --ntasks-per-gpu given (or SLURM_NTASKS_PER_GPU), options
// that fix the tasks' GPUs or nodes otherwise are fatal, in Slurm's
// order and worded by where they came from (the peer: "sbatch: fatal:
// --gpus-per-task is mutually exclusive with --ntasks-per-gpu and
// SLURM_NTASKS_PER_GPU", exit 1).
func (b *builder) verifyNTasksPerGPU() error {
	if _, ok := b.passed["ntasks-per-gpu"]; !ok {
		return nil
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
