#!/bin/bash
# Captures scontrol top on the peer Slurm into top-peer.txt: each case
# submits pending jobs (held back by --begin) with chosen nice values,
# prints "id priority nice" for each, runs scontrol top, prints them
# again, and cancels them. Job priorities on the peer are 12 minus nice
# (job size factor only). Run as root with no other pending jobs of root.
set -euo pipefail
job() { sbatch --parsable --begin=now+1hour --nice="$1" --wrap true; }
show() { squeue -h -j "$1" -o '%i %Q %y' | sort -n; }
run() { # name, nice values..., then "--" and the indices (1-based) to top
	local name=$1; shift
	local ids=() top=()
	while [ "$1" != -- ]; do ids+=("$(job "$1")"); shift; done
	shift
	for i in "$@"; do top+=("${ids[$((i - 1))]}"); done
	local all list
	all=$(IFS=,; echo "${ids[*]}")
	list=$(IFS=,; echo "${top[*]}")
	sleep 1
	echo "case $name"
	echo "before"; show "$all"
	echo "top $list"; scontrol top "$list"
	echo "after"; show "$all"
	echo
	scancel "${ids[@]}"
}
{
	run "one job below two others" -26 -13 0 -- 3
	run "a job at priority 1 and another at 1 are not others" 0 13 26 -- 3
	run "two named jobs; an other falls below 0 and wraps" 0 -30 -20 -10 0 -- 5 4
	run "equal priorities among the named jobs" -10 -10 0 -- 3 1
	run "the named job already first" -20 0 -- 1
	run "a repeated id counts once" -20 0 -- 2 2
} | tee "$(dirname "$0")/top-peer.txt"
