// Package jobopt parses sbatch's options into a job.Request exactly as
// Slurm 22.05's sbatch does: one option table (SbatchOptions) serves the
// command line, #SBATCH directives and SBATCH_* variables, read by a
// getopt_long work-alike with glibc's rules and messages.
//
// # Two passes, as in sbatch
//
//  1. Parser.CommandLine reads the arguments: options up to the first
//     non-option (the script path; what follows are its arguments) or
//     "--". Every option's value is checked here, in order, so the first
//     bad one is reported; --help, --usage and --version stop the pass.
//  2. The caller reads the script (ScriptCandidates says where sbatch looks
//     for it; standard input when there is no path; nothing with --wrap).
//  3. Parser.Submission applies #SBATCH directives, then the #BSUB or
//     #PBS ones translated to sbatch options (xlate.go), then SBATCH_*
//     variables, then the command line again, each overriding the one
//     before (command line > environment > #PBS > #SBATCH), runs sbatch's
//     checks and derivations, and returns the Request with the client-only
//     flags (--parsable, --test-only, --wait, -Q, -v).
//
// Errors are *Error values holding sbatch's exact standard error lines and
// exit status: 255 for options the client rejects (unknown, ambiguous or
// malformed options, bad --time, --mem, --begin, -N ...), 1 for script
// problems, fatal checks and parse_int's numbers (-n 0, -c abc).
//
// # Who applies which default
//
// The client (this package), as Slurm's sbatch: the job name (the script's
// base name, "wrap", or "sbatch" for standard input); standard input
// /dev/null; -o/-e/-i and -D made absolute against the working directory;
// "none" as /dev/null; the node count raised to the -w host count and the
// -w list sorted and deduplicated; the task count from -N and
// --ntasks-per-node when the node count is fixed, and the node range cut to
// the task count; the exported environment (--export) with the SLURM_*
// variables sbatch adds (SLURM_JOB_NAME, SLURM_SUBMIT_DIR,
// SLURM_SUBMIT_HOST, SLURM_EXPORT_ENV, SLURM_NTASKS, SLURM_GPUS_PER_NODE...).
// The caller adds SLURM_UMASK and SLURM_PRIO_PROCESS to Parser.Env if it
// wants them (and sets Parser.UmaskAdded when it added SLURM_UMASK), and
// replaces CommandLine.Script with the path it resolved.
//
// The controller: the partition, time limit, memory per CPU and requeue
// defaults; output file names when -o/-e are not given (slurm-%j.out,
// slurm-%A_%a.out); the submitting user, group and host; and the checks
// that need the cluster or the job table: partitions, GRES names, node
// names, array specs against MaxArraySize (job.ParseArray), dependencies
// (job.ParseDependency), time-min against the limit (job.Request.Validate).
//
// # Where Loam differs from sbatch
//
//   - --data=PATH[,PATH...] is Loam's (requirement R1); a later occurrence
//     replaces an earlier one, like every other option.
//   - --container, --mcs-label and --gpu-freq are recorded and shown as
//     Slurm shows them without an OCI runtime, an MCS plugin or GPU clock
//     control. Other options Slurm has and Loam does not implement
//     (--profile, --bbf, --context, ...) are accepted, so that existing
//     scripts parse, and ignored with "sbatch: warning: Loam ignores --X".
//     The values Slurm checks on the client are checked first, with its
//     messages (check_values.go: --threads-per-core, -B, --propagate,
//     --hint, --mem-bind, --cpu-freq, --wait-all-nodes, --uid, --gid).
//   - GRES names are not checked against a local slurm.conf (the client has
//     none); --uid and --gid must name a user or group of the submit host
//     when the caller sets Parser.UserKnown/GroupKnown; a malformed -w list
//     gets a message naming the problem; heterogeneous jobs (#SBATCH
//     hetjob) are refused.
//   - getopt's messages name the program as called, Parser.Argv0 (glibc
//     prints argv[0]: "/usr/bin/sbatch: unrecognized option ..."), and the
//     hint after them Parser.Prog; directives are sbatch's own argv, whose
//     argv[0] is "sbatch". srun's and salloc's tables are put in Slurm's
//     order (option_order.go) so an ambiguous prefix lists the peer's
//     possibilities in the peer's order.
//
// testdata/sbatch_peer.json holds what the real sbatch did with each case
// of golden_cases_test.go: exit status, standard error and scontrol's view
// of accepted jobs. "go test -run TestCapturePeer -peer" rewrites it from
// the Slurm on the host; plain "go test" compares Parser against it.
//
// It is a leaf: no I/O, no clock; the caller hands in the environment, the
// working directory, the time and the script.
package jobopt
