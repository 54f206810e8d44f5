#!/bin/bash
# capture.sh regenerates the golden files of this directory from a running
# Slurm (22.05 on the development host, whose clock is UTC). The tests only
# read the golden files; they never need Slurm. It submits held jobs to
# partition "batch" and cancels them at once. Usage: ./capture.sh
#
#   durations.golden  input<TAB>scontrol TimeLimit<TAB>squeue %l, for
#                     sbatch --time=input; ERROR when sbatch rejects it
#   times.golden      input<TAB>now (Unix seconds)<TAB>scontrol EligibleTime
#                     for sbatch --begin=input; ERROR when sbatch rejects it.
#                     Slurm shows a begin time that is not in the future as
#                     Unknown. A line is kept only when the clock did not
#                     tick while sbatch ran, so that now is exact.
set -eu
cd "$(dirname "$0")"

inputs() { grep -v -e '^#' -e '^$' "$1"; }

submit() { # submit OPTION=VALUE: prints a job id or ERROR
	local out
	if out=$(sbatch --parsable --hold -p batch "$1" --wrap=true 2>/dev/null); then
		echo "$out"
	else
		echo ERROR
	fi
}

field() { scontrol show job "$1" | grep -o "$2=[^ ]*" | cut -d= -f2-; }

: >durations.golden
inputs durations.in | while IFS= read -r in; do
	id=$(submit "--time=$in")
	if [ "$id" = ERROR ]; then
		printf '%s\tERROR\n' "$in" >>durations.golden
		continue
	fi
	printf '%s\t%s\t%s\n' "$in" "$(field "$id" TimeLimit)" "$(squeue -h -j "$id" -o %l)" >>durations.golden
	scancel "$id"
done

: >times.golden
inputs times.in | while IFS= read -r in; do
	for try in 1 2 3; do
		before=$(date +%s)
		id=$(submit "--begin=$in")
		after=$(date +%s)
		[ "$before" = "$after" ] && break
		[ "$id" = ERROR ] || scancel "$id"
	done
	if [ "$id" = ERROR ]; then
		printf '%s\t%s\tERROR\n' "$in" "$before" >>times.golden
		continue
	fi
	printf '%s\t%s\t%s\n' "$in" "$before" "$(field "$id" EligibleTime)" >>times.golden
	scancel "$id"
done
