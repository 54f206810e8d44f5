// Package rlimit carries the submitting shell's resource limits (ulimit)
// to a job's processes, as Slurm's PropagateResourceLimits and
// --propagate do: sbatch and srun put their soft limits in the job's
// environment as SLURM_RLIMIT_<NAME>=<value> ("U" before the value when
// --propagate named the limit), and the node applies the ones slurm.conf
// propagates, or the user asked for, to the job's process before it runs
// the program, then leaves the variables out of the job's environment.
//
// The package stays small: the job supervisor imports it.
package rlimit
