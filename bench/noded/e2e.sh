#!/bin/bash
# e2e.sh: end-to-end numbers of a Loam cluster next to the Slurm peer's
# bench.sh parts (e) and (f), measured the same way.
#
#   ./e2e.sh            parts e f l
#   ./e2e.sh e          only some parts
#
# e  N_E2E (1000) x "sbatch --wrap=true -n1", first submit -> last finished
#    (target: 3x the peer's jobs/s, which did 31-44 jobs/s)
# f  N_GPU (200) GPU jobs gpu:{1,2,4,8} x -N{1,2,4}, sleep 1-3 s (same seeded
#    sequence as the peer), makespan vs the lower bound GPU-s / GPUs
#    (target: within 1.3x; the peer took 1.7-2.4x)
# l  N_LAT (20) single jobs on an idle cluster: submit -> the script's first
#    instruction, median (target: under 100 ms)
#
# Each part gets a fresh cluster of emulated 8-GPU nodes, as many as the
# peer has for it (NODES_E=40 for e and l, NODES_F=32 for f), and no
# tenants (no quotas, like the peer). Results are appended to results.txt
# beside this script.
set -uo pipefail
. "$(dirname "$0")/common.sh"
# Node counts as the peer's: 40 nodes for e and l, its 32 GPU nodes for f.
NODES_E=${NODES_E:-40}
NODES_F=${NODES_F:-32}
# No tenants: the peer has no quotas either, and the demo's per-user GPU
# cap would hold back the 4 x 8-GPU jobs of part f.
export LOAM_TENANTS=${LOAM_TENANTS:-none}
N_E2E=${N_E2E:-1000}
N_GPU=${N_GPU:-200}
N_LAT=${N_LAT:-20}
SEED=${SEED:-42}
PARTS=${*:-e f l}
has() { [[ " $PARTS " == *" $1 "* ]]; }
work=$(mktemp -d /tmp/loam-bench-work.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC') loam e2e: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$results"
sb="$bin/sbatch"

# fresh N: a new cluster of N nodes.
fresh() {
	export LOAM_NODES=$1
	cluster_up
}

wait_drained() { # deadline seconds
	local dl=$((SECONDS + $1))
	while (($(live) > 0 && SECONDS < dl)); do sleep 0.2; done
}

if has e; then
	fresh "$NODES_E"
	say "(e) $N_E2E x sbatch --wrap=true -n1"
	mark
	dl=$((SECONDS + 600)) n=0 t0=$(now)
	for ((i = 0; i < N_E2E && SECONDS < dl; i++)); do
		timeout 30 "$sb" --wrap=true -p normal -n1 -o /dev/null -J bE >/dev/null && n=$((n + 1))
	done
	ts=$(now)
	wait_drained 600
	t1=$(now) left=$(live) el=$(dt "$t0" "$t1")
	row "(e)" "$n x 'sbatch --wrap=true -n1' first submit -> last finished ($LOAM_NODES nodes)" "$el s = $(div "$n" "$el") jobs/s (submit phase $(dt "$t0" "$ts") s, unfinished=$left)"
fi

if has f; then
	fresh "$NODES_F"
	RANDOM=$SEED
	gs=(1 2 4 8) ns=(1 2 4) tl=(1 2 5 10)
	gpusec=0 maxsl=0
	say "(f) $N_GPU GPU jobs, seed $SEED"
	mark
	t0=$(now) n=0 dl=$((SECONDS + 300))
	for ((i = 0; i < N_GPU && SECONDS < dl; i++)); do
		g=${gs[RANDOM % 4]} N=${ns[RANDOM % 3]} t=${tl[RANDOM % 4]} sl=$((1 + RANDOM % 3))
		gpusec=$((gpusec + g * N * sl))
		((sl > maxsl)) && maxsl=$sl
		timeout 30 "$sb" -p normal -N "$N" --ntasks-per-node=1 --gres=gpu:$g --time=$t -o /dev/null -J bF --wrap="sleep $sl" >/dev/null && n=$((n + 1))
	done
	ts=$(now)
	wait_drained 600
	t1=$(now) left=$(live)
	ngpu=$((LOAM_NODES * 8))
	lb=$(awk -v a=$gpusec -v b="$ngpu" -v m=$maxsl 'BEGIN{x=a/b; if (m>x) x=m; printf "%.1f", x}')
	ms=$(dt "$t0" "$t1")
	row "(f)" "$n GPU jobs gpu:{1,2,4,8} x -N{1,2,4}, sleep 1-3 s, makespan ($LOAM_NODES nodes)" "$ms s = $(awk -v a="$ms" -v b="$lb" 'BEGIN{printf "%.2f", a/b}')x the lower bound (submit phase $(dt "$t0" "$ts") s; GPU-s=$gpusec on $ngpu GPUs, lower bound ${lb} s; unfinished=$left)"
fi

if has l; then
	fresh "$NODES_E"
	say "(l) $N_LAT single jobs: submit -> running"
	mark
	lat=()
	for ((i = 0; i < N_LAT; i++)); do
		out=$work/lat-$i.out
		t0=$(now)
		"$sb" -p normal -n1 -o "$out" -J bL --wrap='date +%s.%N' >/dev/null || continue
		for ((w = 0; w < 100; w++)); do [ -s "$out" ] && break; sleep 0.05; done
		[ -s "$out" ] && lat+=("$(dt "$t0" "$(head -1 "$out")")")
		wait_drained 30
	done
	med=$(printf '%s\n' "${lat[@]}" | sort -g | awk '{a[NR]=$1} END{print (NR ? a[int((NR+1)/2)] : "n/a")}')
	row "(l)" "${#lat[@]} jobs on an idle cluster: submit -> script running, median" "$(awk -v m="$med" 'BEGIN{printf "%.0f ms", 1000*m}') (all: $(printf '%s ' "${lat[@]}"))"
fi
[ "${KEEP:-0}" = 1 ] || cluster_down
