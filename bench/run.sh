#!/bin/bash
# run.sh: Loam's benchmarks, what `make bench` runs.
#
#   bench/run.sh                  every benchmark below, in this order
#   bench/run.sh compare ctld     only some of them
#
#   compare  bench/compare/run.sh: Loam next to the real Slurm peer, part by
#            part (submission rates, arrays, squeue, scancel, end-to-end
#            throughput and latency, GPU makespan, 100k jobs, idle node
#            daemons). ~12 min. Writes bench/compare/results.txt.
#   ctld     bench/ctld: the controller alone through the client library
#            (no process start per request), 100k jobs. ~2 min.
#   srun     bench/srun/run.sh: srun -N 8 -n 64 on Loam and on the peer.
#   sim      bench/sim/run.sh: the trace replays (ssim), four traces.
#            ~3 min.
#
# Not run here: bench/noded (e2e.sh and idle.sh measure what compare's e,
# f, l and idle parts measure, on a cluster of GPU nodes only; kept for the
# node daemon's own numbers) and bench/live (replays a trace window through
# a live cluster on a sped-up clock; see its README for its flags).
#
# Needs root (node daemons make cgroups) and a built bin/ (make build).
# Each benchmark brings up and takes down its own cluster; a failure is
# reported and the next one runs. Exit status: the number that failed.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1
ALL="compare ctld srun sim"
want=${*:-$ALL}
failed=0

say() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

run() { # NAME CMD...
	local name=$1
	shift
	say "$name: $*"
	if ! "$@"; then
		say "$name failed"
		failed=$((failed + 1))
	fi
}

for b in $want; do
	case $b in
	compare) run compare bench/compare/run.sh ;;
	ctld) run ctld go run ./bench/ctld -bin "${LOAM_BIN:-$repo/bin}" ;;
	srun)
		if [ -x bench/srun/run.sh ]; then
			run srun bench/srun/run.sh
		else
			say "srun: bench/srun/run.sh is missing, skipped"
		fi
		;;
	sim) run sim bench/sim/run.sh ;;
	*)
		say "unknown benchmark $b (want: $ALL)"
		failed=$((failed + 1))
		;;
	esac
done
exit "$failed"
