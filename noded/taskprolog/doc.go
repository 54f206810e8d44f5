// Package taskprolog runs a task prolog or epilog (slurm.conf's
// TaskProlog and TaskEpilog, srun's --task-prolog and --task-epilog) as
// the job's user, bounded in time, and reads a prolog's standard output
// as Slurm's slurmstepd does: "export NAME=value" sets a variable in the
// task's environment, "unset NAME" removes one, "print text" writes text
// to the task's standard output, and every other line is ignored. It
// imports nothing beyond the standard library, so the job supervisor and
// the step process stay light.
package taskprolog
