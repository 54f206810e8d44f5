// Package supervisor runs one job on a node: loam-noded starts it as a
// separate process (the small static binary loam-supervise, or failing
// that the loam-noded binary re-executed, with the first argument
// "__supervise" and the job's spool directory), in its own session, so it
// outlives restarts of the daemon. It
//
//  1. takes the job's lock (Lock, an flock on the job's directory): alive
//     exactly while it holds it;
//  2. listens on the job's control socket (signal, terminate, time limit,
//     state, wait: one JSON line each way, on an abstract unix socket
//     named after the job's directory) and tells the daemon it is ready;
//  3. loads the job's cgroup, which the daemon created before starting it
//     (package isolation: cpuset, memory, pids, the GPUs the job was not
//     given denied), through package cgfs, without containerd's packages;
//  4. opens the output, error and input files as the job's user (a
//     per-thread file system identity), so a job can neither create nor
//     truncate a file its user could not;
//  5. starts the batch script through a shim (a POSIX shell one-liner) as
//     the user, with the job's uid, gid and groups, in its own session, in
//     --chdir (or /tmp, as slurmd falls back). The shim blocks on a pipe
//     until the supervisor has put its pid in the cgroup, so nothing the
//     job touches is charged elsewhere, then sets SLURM_TASK_PID and the
//     umask and execs the script in its place;
//  6. drives the job's lifecycle (package lifecycle): --signal warnings,
//     the time limit, cancel and preemption orders;
//  7. when the script exits, kills what is left in the cgroup (freeze,
//     SIGKILL, thaw), reads the OOM count, removes the cgroup, and writes
//     result.json, the job's end as the controller will see it.
//
// Nodes of a multi-node job other than the batch host run an allocation
// only: the cgroup, held until the job is terminated or times out, ready
// for the job's steps.
//
// slurm.conf's node Prolog runs (package nodeprolog) before step 3 and the
// Epilog after step 7, on every node of the job; the supervisor shows
// Completing while the epilog runs and answers the daemon's orders
// meanwhile (nodeprolog.go).
package supervisor
