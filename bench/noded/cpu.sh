#!/bin/bash
# cpu.sh: CPU per trivial job, by process, on a fresh cluster: what part
# (e) of e2e.sh spends, measured directly rather than as a wall-clock rate
# (which other work on a shared machine moves by a third).
#
#   ./cpu.sh            N_CPU (300) x "sbatch --wrap=true -n1" on NODES (40)
#
# Reads /proc/PID/stat of loam-ctld and every loam-noded before the first
# submit and after the last job finished: a daemon's own CPU (utime+stime)
# and its reaped children's (cutime+cstime). A node daemon's children are
# the jobs' supervisors, each with its job's shim and script (a supervisor
# reaps those, so their CPU is in its own children's). sbatch's CPU is this
# shell's children (bash's "times"). Results are appended to results.txt.
set -uo pipefail
. "$(dirname "$0")/common.sh"
NODES=${NODES:-40}
N_CPU=${N_CPU:-300}
export LOAM_TENANTS=${LOAM_TENANTS:-none}
work=$(mktemp -d /tmp/loam-bench-work.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC') loam cpu per job: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$results"
hz=$(getconf CLK_TCK)

# ticks PIDFILE...: "self children" clock ticks summed over the processes.
ticks() {
	local pf pid s=0 c=0 f
	for pf in "$@"; do
		pid=$(cat "$pf")
		# Fields after the command name, which may hold spaces.
		read -ra f <<<"$(sed 's/^.*) //' "/proc/$pid/stat")"
		s=$((s + f[11] + f[12])) c=$((c + f[13] + f[14]))
	done
	echo "$s $c"
}
# shell_ticks: this shell's children's user+sys CPU in ticks (sbatch).
shell_ticks() { sed 's/^.*) //' /proc/$$/stat | awk '{print $14 + $15}'; }
ms() { awk -v t="$1" -v n="$2" -v hz="$hz" 'BEGIN{printf "%.2f", 1000 * t / hz / n}'; }

export LOAM_NODES=$NODES
cluster_up
state=$LOAM_CLUSTER_DIR
ctld=("$state/pids/ctld.pid")
noded=("$state"/pids/noded-*.pid)
wait_drained() { # deadline seconds
	local dl=$((SECONDS + $1))
	while (($(live) > 0 && SECONDS < dl)); do sleep 0.2; done
}
say "cpu: $N_CPU x sbatch --wrap=true -n1 on $NODES nodes"
mark
read -r c0 _ <<<"$(ticks "${ctld[@]}")"
read -r n0 k0 <<<"$(ticks "${noded[@]}")"
b0=$(shell_ticks)
t0=$(now) n=0
for ((i = 0; i < N_CPU; i++)); do
	timeout 30 "$bin/sbatch" --wrap=true -p normal -n1 -o /dev/null -J bC >/dev/null && n=$((n + 1))
done
b1=$(shell_ticks)
wait_drained 600
t1=$(now)
# The last supervisors are reaped a moment after their jobs are reported.
sleep 1
read -r c1 _ <<<"$(ticks "${ctld[@]}")"
read -r n1 k1 <<<"$(ticks "${noded[@]}")"
row "cpu" "$n x 'sbatch --wrap=true -n1', CPU ms per job ($NODES nodes)" \
	"supervisor+job $(ms $((k1 - k0)) "$n"), loam-noded $(ms $((n1 - n0)) "$n"), loam-ctld $(ms $((c1 - c0)) "$n"), sbatch $(ms $((b1 - b0)) "$n") ($(dt "$t0" "$t1") s, unfinished=$(live))"
[ "${KEEP:-0}" = 1 ] || cluster_down
