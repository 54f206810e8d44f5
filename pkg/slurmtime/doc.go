// Package slurmtime parses and prints Slurm's duration and timestamp
// formats, as Slurm 22.05's sbatch, scontrol and squeue do.
//
// Durations (time limits, --time, MaxTime): M, M:S, H:M:S, D-H, D-H:M,
// D-H:M:S, plus UNLIMITED, INFINITE and -1 for no limit. Fields are not
// range-checked ("1:61" is 121 seconds), as in Slurm. ParseDuration keeps
// seconds; ParseTimeLimit rounds up to whole minutes and maps 0 to
// Unlimited, which is what Slurm does with a job's --time ("A time limit of
// zero requests that no time limit be imposed", sbatch(1)).
//
// Timestamps (--begin, --deadline): ParseTime follows Slurm's parse_time:
// now[+-count[seconds|minutes|hours|days|weeks]], HH:MM[:SS] [AM|PM],
// MMDD[YY], MM/DD[/YY], MM.DD[.YY], YYYY-MM-DD[THH:MM[:SS]], the words
// today, tomorrow, midnight, noon, fika (15:00) and teatime (16:00), and
// uts<seconds since the epoch>. A time without a date means the next time
// that clock time comes; a date without a year means the next time that
// date comes. Every time is local: ParseTime takes the location from now.
//
// The package reads no clock: callers pass now.
package slurmtime
