// Package command implements Loam's user commands (sbatch, squeue, scancel,
// sinfo, scontrol, sacct, srun, salloc, sprio, sshare, sreport) behind the
// thin mains in tools/*. Each command is
// one function, Sbatch(ctx, env, args) int and so on, that reads everything
// from an Env (standard streams, environment, clock, identity, the
// controller) and returns the exit status, so tests run a command in-process
// against a fake controller and compare its bytes with what Slurm printed.
//
// # Compatibility
//
// Output, messages and exit statuses follow Slurm 22.05 byte for byte where
// Slurm prints something: column headers, field widths and truncation,
// "(null)" for unset strings, the order squeue sorts in, scontrol's
// key=value layout. testdata/ holds what the real Slurm printed for recorded
// job, node and partition records; the tests rebuild Loam's api records from
// those recordings and compare (testdata/peer/README says how they are made
// and what is normalized).
//
// # Layout
//
//   - process.go: Env, the process boundary, and the Controller interface;
//     dial.go: finding the controller and Main for the thin mains; env.go:
//     SQUEUE_* variables (sbatch's SBATCH_* are pkg/jobopt's).
//   - getopt.go: getopt_long with glibc's permutation, abbreviations and
//     messages, which start with argv[0] as called (Env.Argv0, set by
//     Main) while the hint after them names the command (sbatch uses
//     pkg/jobopt's own parser).
//   - format.go: -o/-O specifications and Slurm's field padding; slurmfmt.go:
//     Slurm's number, time and memory renderings.
//   - one file (or a few) per command.
//
// Formatters are pure functions of api records, the options and the time:
// they append to one preallocated buffer that the command writes once.
package command
