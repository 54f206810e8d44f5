#!/bin/bash
# run.sh: "srun -N 8 -n 64 true" on Loam next to the Slurm peer's srun on
# the same machine (target: Loam under 1 s). For each, RUNS (10) times:
#
#   out   srun outside any job: allocate, run the step, release
#   in    srun inside an allocation of 8 nodes and 64 CPUs (salloc)
#
# Loam runs on a private cluster of 8 emulated nodes brought up with
# contrib/demo/cluster.sh (64 CPUs, 8 GPUs each, no tenants); the peer on
# its own 40 nodes (the step lands on 8 of them). Prints the median, min
# and max wall time of each and appends them to results.txt beside this
# script. Needs root (node daemons) and a built bin/ (make build).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
bin=${LOAM_BIN:-$repo/bin}
here=$repo/bench/srun
results=${RESULTS:-$here/results.txt}
RUNS=${RUNS:-10}
export LOAM_CLUSTER_DIR=${LOAM_CLUSTER_DIR:-/tmp/loam-bench-srun} LOAM_NODES=8 LOAM_TENANTS=none

say() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# times CMD...: run CMD RUNS times, print the wall time of each (s).
times() {
	local i t0 t1
	for ((i = 0; i < RUNS; i++)); do
		t0=$(date +%s.%N)
		"$@" >/dev/null 2>&1 || say "failed: $*"
		t1=$(date +%s.%N)
		awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f\n", b-a}'
	done
}

# stats: median, min and max of numbers on stdin.
stats() { sort -n | awk '{v[NR]=$1} END{printf "median %.3f s  min %.3f s  max %.3f s  (%d runs)", v[int((NR+1)/2)], v[1], v[NR], NR}'; }

row() {
	local line
	line=$(printf '%-6s %-5s %-28s %s' "$1" "$2" "srun -N 8 -n 64 true" "$3")
	say "$line"
	echo "$line" >>"$results"
}

# inside SRUN: the times of srun run inside one allocation of 8 x 8 CPUs.
inside() {
	local srun=$1 salloc=$2
	# shellcheck disable=SC2016
	"$salloc" -N8 -n64 bash -c 'for ((i = 0; i < '"$RUNS"'; i++)); do
		t0=$(date +%s.%N); '"$srun"' -N 8 -n 64 true >/dev/null 2>&1; t1=$(date +%s.%N)
		awk -v a="$t0" -v b="$t1" '"'"'BEGIN{printf "%.3f\n", b-a}'"'"'
	done' 2>/dev/null
}

echo "# $(date -u +%FT%TZ) $(nproc) CPUs, RUNS=$RUNS" >>"$results"

# The peer.
if /usr/bin/sinfo >/dev/null 2>&1; then
	row peer out "$(times /usr/bin/srun -N 8 -n 64 true | stats)"
	row peer in "$(inside /usr/bin/srun /usr/bin/salloc | stats)"
else
	say "the Slurm peer does not answer: /work/shared/peer/setup.sh starts it"
fi

# Loam.
"$repo/contrib/demo/cluster.sh" down >/dev/null 2>&1
rm -rf "$LOAM_CLUSTER_DIR"
"$repo/contrib/demo/cluster.sh" up >"$LOAM_CLUSTER_DIR.env" || exit 1
# shellcheck disable=SC1090
. "$LOAM_CLUSTER_DIR.env"
trap '"$repo/contrib/demo/cluster.sh" down >/dev/null 2>&1' EXIT
"$bin/srun" -N 8 -n 64 true >/dev/null 2>&1 # warm the page cache
row loam out "$(times "$bin/srun" -N 8 -n 64 true | stats)"
row loam in "$(inside "$bin/srun" "$bin/salloc" | stats)"
