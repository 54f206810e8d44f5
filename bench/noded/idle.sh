#!/bin/bash
# idle.sh: memory (RSS) and CPU of idle loam-noded daemons.
#
# Brings up a private cluster (LOAM_NODES, default 4), waits WARM seconds
# (default 10) for start-up work to settle, then samples every daemon's
# VmRSS and its user+system CPU time over WINDOW seconds (default 60).
# Targets: under 30 MiB RSS and under 1% of one core per daemon.
set -uo pipefail
. "$(dirname "$0")/common.sh"
WARM=${WARM:-10}
WINDOW=${WINDOW:-60}
cluster_up
sleep "$WARM"
tick=$(getconf CLK_TCK)
declare -A t0
for pf in "$LOAM_CLUSTER_DIR"/pids/noded-*.pid; do
	pid=$(cat "$pf")
	t0[$pid]=$(awk '{print $14 + $15}' "/proc/$pid/stat")
done
mark
sleep "$WINDOW"
max_rss=0 max_cpu=0
for pid in "${!t0[@]}"; do
	t1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
	rss=$(awk '/^VmRSS/{print $2}' "/proc/$pid/status")
	cpu=$(awk -v a="${t0[$pid]}" -v b="$t1" -v hz="$tick" -v w="$WINDOW" 'BEGIN{printf "%.3f", 100*(b-a)/hz/w}')
	say "pid $pid: RSS $((rss / 1024)) MiB, CPU $cpu% of a core"
	[ "$rss" -gt "$max_rss" ] && max_rss=$rss
	max_cpu=$(awk -v a="$max_cpu" -v b="$cpu" 'BEGIN{print (b > a ? b : a)}')
done
row "idle" "loam-noded x${#t0[@]}, ${WINDOW}s idle: max RSS, max CPU" "$(awk -v k="$max_rss" 'BEGIN{printf "%.1f MiB", k/1024}'), ${max_cpu}% of a core"
[ "${KEEP:-0}" = 1 ] || cluster_down
