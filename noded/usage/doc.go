// Package usage measures what a job's steps use on a node, as Slurm's
// jobacct_gather does, for sacct and sstat.
//
// At a step's end (the batch script, or a task of an srun step) the
// numbers come from what the kernel hands the process that reaps the
// task: wait4's rusage (user and system CPU time, the task's and its
// waited-for descendants', and ru_maxrss, the largest resident set among
// them), plus one read of the cgroup's memory peak. Nothing polls: a job
// of a few milliseconds pays a few reads.
//
// An srun step's process writes its numbers into the step's directory
// (StepFile); the node daemon, which waits on the process's pidfd
// (WaitExit), numbers them as an event of their own (EventFile) for the
// controller. The job's end event carries the steps left without one
// (ScanSteps), after waiting for the step processes its kill ended.
//
// While a step runs (sstat), its processes are read from /proc: CPU
// time (their own and their reaped children's), resident and virtual
// size, grouped into tasks by session, since every task is started in a
// session of its own.
package usage
