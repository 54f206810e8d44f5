package api

// IOAborted (node to srun, no payload) says the step was cancelled on the
// node (scancel JOB.STEP, its job cancelled, out of time, preempted), not
// by srun: srun then says "Job step aborted" as Slurm's does, instead of
// "Force Terminated" for tasks killed from outside. It follows the
// node's "*** STEP ... CANCELLED ***" line.
const IOAborted StepIOKind = 11
