// Package step runs a job step's tasks on one node, as slurmstepd does
// for srun. The controller sends each node of the step a launch (its
// share of the layout, srun's environment and options, where srun
// listens); the node daemon checks that it runs the job, writes the
// request into <job dir>/step_<id>/ and starts "loam-noded __step DIR" in
// its own session (Launch), so a step outlives a restart of the daemon.
// The step process (Main):
//
//  1. creates the step's cgroup below the job's (job_N/step_S), denying
//     the job's GPUs the step was not given; the job's limits still hold,
//     and ending the job ends its steps;
//  2. connects to srun's listening address and proves it got the launch
//     (api.StepIOHello, MACed with the key srun gave the controller),
//     then tells the daemon it is ready;
//  3. starts each task as the job's user through a shim that waits until
//     the task is in the step's cgroup (as the job supervisor does), with
//     the task's environment (Env: srun's environment, then the step's,
//     the node's and the task's SLURM_* variables), its CPUs (TaskCPUs,
//     --cpu-bind) and GPUs (TaskGPUs, --gpus-per-task, --gpu-bind); with
//     srun --multi-prog each task runs the command its line of the
//     configuration gives it (api.MultiProgArgv); a command that cannot
//     be executed ends the task with slurmstepd's "execve(): ..." line and
//     errno as its exit status;
//  4. forwards the tasks' output to srun (or into the --output/--error
//     files, opened as the user) and srun's input to them, and carries
//     out srun's signals and terminate orders (SIGCONT, SIGTERM, KillWait,
//     SIGKILL, announced by "*** STEP J.S ON N CANCELLED AT T ***"), and
//     the node daemon's cancel for scancel JOB.STEP (CancelSignal: the
//     same line, then SIGKILL at once; Cancel finds the process); with
//     srun --pty task 0 runs on a new pseudo-terminal owned by the user,
//     its controlling terminal, sized and resized as srun's window, and
//     the other tasks read and write /dev/null;
//  5. reports task ends to srun, the tasks of the node that ended alike
//     together, kills what the tasks left in the cgroup, says IODone and
//     removes the cgroup.
//
// If srun goes away while tasks run, the step is terminated.
package step
