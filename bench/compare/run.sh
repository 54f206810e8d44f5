#!/bin/bash
# run.sh: Loam next to the real Slurm peer, part by part, in one run.
#
#   bench/compare/run.sh            every part: Loam, then the peer (~10 min)
#   bench/compare/run.sh a b c d    some parts (a, a2, b, c, d belong
#                                   together: c and d see what a-b submitted)
#   PEER=0 bench/compare/run.sh     Loam only; the peer column is left empty
#
# The parts, measured exactly as ../shared/peer/bench.sh measures the peer
# (the same commands, loops, timeouts and medians; its rows are copied):
#   a    N_SUBMIT (2000) sequential "sbatch --wrap=true -p batch --hold"
#   a2   N_FILL (8000) more from P_STREAMS (4) parallel streams
#   b    one "sbatch --array=0-(N_ARRAY-1) --hold"
#   c    squeue and sinfo, median of 5 runs each
#   d    "scancel --user=root" of everything above
#   e    N_E2E (1000) x "sbatch --wrap=true -n1", first submit -> last end
#   f    N_GPU (200) GPU jobs (gpu:{1,2,4,8} x -N{1,2,4}, sleep 1-3 s, the
#        peer's seeded sequence), makespan against GPU-seconds / GPUs
# and three the peer's script has no row for, measured on both sides
# where that means something:
#   big  BIG (100000) pending jobs: squeue (median of 5), the controller's
#        RSS, "scancel --user=root" (Loam only: the peer's MaxJobCount is
#        100000 and filling it takes its sbatch ~15 min)
#   l    N_LAT (20) jobs on an idle cluster: submit -> the script running
#        (Loam only: the peer's script has no such row)
#   idle IDLE_WINDOW (30) s of idle node daemons: RSS and CPU of each
#        loam-noded and each slurmd, measured over the same window
#
# Loam runs on a cluster brought up by contrib/demo/cluster.sh with the
# peer's shape: 32 GPU nodes (8 GPUs each) and 8 CPU nodes, no tenants (the
# peer has no quotas), MinJobAge 300 like the peer. The peer's own
# bench.sh then runs the same parts on it (PEER_FRESH=1 restarts it first).
# Every row carries the CPU steal while it ran ([steal N%], from
# /proc/stat, as the peer's script computes it): this VM is shared, and
# steal moves both columns by 2-3x.
#
# Output: the side-by-side table on stdout and in results.txt beside this
# script (when every part ran), every run appended to results-history.txt.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=${LOAM_BIN:-$repo/bin}
peer=${PEER_DIR:-$repo/../shared/peer}
N_SUBMIT=${N_SUBMIT:-2000}
N_FILL=${N_FILL:-8000}
P_STREAMS=${P_STREAMS:-4}
N_ARRAY=${N_ARRAY:-10000}
N_E2E=${N_E2E:-1000}
N_GPU=${N_GPU:-200}
N_LAT=${N_LAT:-20}
BIG=${BIG:-100000}
IDLE_WINDOW=${IDLE_WINDOW:-30}
SEED=${SEED:-42}
# PEER_FRESH=1 lets the peer's bench.sh restart it with empty state first.
# Not by default: on this loaded VM its slurmctld can take longer to answer
# than its setup.sh waits (20 s), which leaves it without slurmd, and the
# other engineers use it. With 0 its jobs are cancelled first instead.
PEER_FRESH=${PEER_FRESH:-0}
ALL="a a2 b c d e f big l idle"
PARTS=${*:-$ALL}
FMT="%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R"
export LOAM_CLUSTER_DIR=${LOAM_CLUSTER_DIR:-/tmp/loam-compare}
export LOAM_NODES=32 LOAM_CPU_NODES=8 LOAM_TENANTS=none

work=$(mktemp -d /tmp/loam-compare-work.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
# shellcheck source=bench/compare/lib.sh
. "$here/lib.sh"

has() { [[ " $PARTS " == *" $1 "* ]]; }

# Loam's commands by their Slurm names for the Loam parts; the peer's
# script runs with the PATH this script was started with (taken before
# cluster_up, whose environment puts Loam's commands first).
peer_path=$PATH
cluster_up || exit 1
PATH=$bin:$PATH
hash -r

if has a; then
	say "(a) $N_SUBMIT sequential sbatch --hold"
	mark
	dl=$((SECONDS + 600)) n=0 t0=$(now) tc=$t0 chunk=$((N_SUBMIT >= 8 ? N_SUBMIT / 4 : N_SUBMIT)) rates=()
	for ((i = 0; i < N_SUBMIT && SECONDS < dl; i++)); do
		timeout 30 sbatch --wrap=true -p batch --hold -o /dev/null -J bA >/dev/null && n=$((n + 1))
		if (((i + 1) % chunk == 0)); then
			t=$(now) rates+=("$(div "$chunk" "$(dt "$tc" "$t")")") tc=$t
		fi
	done
	t1=$(now) el=$(dt "$t0" "$t1")
	mm=$(IFS=/; echo "${rates[*]:-n/a}")
	row "(a)" "$n sequential 'sbatch --wrap=true -p batch --hold'" "$el s = $(div "$n" "$el") jobs/s ($(awk -v e="$el" -v n="$n" 'BEGIN{printf "%.1f", 1000*e/n}') ms/job; by quarter $mm jobs/s)"
fi

if has a2; then
	say "(a2) $N_FILL more via $P_STREAMS parallel streams"
	mark
	per=$(((N_FILL + P_STREAMS - 1) / P_STREAMS))
	t0=$(now)
	for ((p = 0; p < P_STREAMS; p++)); do
		(
			dl=$((SECONDS + 600)) c=0
			for ((i = 0; i < per && SECONDS < dl; i++)); do
				timeout 30 sbatch --wrap=true -p batch --hold -o /dev/null -J bA2 >/dev/null && c=$((c + 1))
			done
			echo "$c" >"$work/stream.$p"
		) &
	done
	wait
	t1=$(now) el=$(dt "$t0" "$t1")
	n=$(cat "$work"/stream.* | awk '{s+=$1} END{print s+0}')
	row "(a2)" "$n x sbatch --hold from $P_STREAMS parallel streams" "$el s = $(div "$n" "$el") jobs/s"
fi

if has b; then
	say "(b) sbatch --array=0-$((N_ARRAY - 1)) --hold"
	mark
	t0=$(now)
	timeout 120 sbatch --array=0-$((N_ARRAY - 1)) --hold -p batch --wrap=true -o /dev/null -J bB >/dev/null
	rc=$? t1=$(now)
	row "(b)" "one 'sbatch --array=0-$((N_ARRAY - 1)) --hold' (rc=$rc)" "$(dt "$t0" "$t1") s"
fi

if has c; then
	l1=$(timeout 120 squeue | wc -l)
	l2=$(timeout 120 squeue -r | wc -l)
	l3=$(timeout 120 squeue -u root -t PD --format="$FMT" | wc -l)
	say "(c) squeue latency; lines: default=$l1 -r=$l2"
	mark; row "(c)" "squeue, $l1 lines (pending array = 1 line), median of 5" "$(median5 squeue) s"
	mark; row "(c)" "squeue -r, $l2 lines (array expanded), median of 5" "$(median5 squeue -r) s"
	mark; row "(c)" "squeue -u root -t PD --format='$FMT', $l3 lines" "$(median5 squeue -u root -t PD --format="$FMT") s"
	mark; row "(c)" "squeue -r -u root -t PD --format=<same>, median of 5" "$(median5 squeue -r -u root -t PD --format="$FMT") s"
	mark; row "(c)" "squeue -j <one id>, median of 5" "$(median5 squeue -j "$(squeue -h -o %i | head -1)") s"
	mark; row "(c)" "sinfo, median of 5" "$(median5 sinfo) s"
fi

if has d; then
	nrec=$(timeout 120 squeue -h -o %i | wc -l)
	ntask=$(timeout 120 squeue -h -r -o %i | wc -l)
	say "(d) scancel -u root ($nrec records, $ntask jobs incl. array tasks)"
	mark
	t0=$(now); timeout 600 scancel --user=root; rc=$?; t1=$(now)
	dl=$((SECONDS + 120))
	while (($(live) > 0 && SECONDS < dl)); do sleep 0.2; done
	t2=$(now)
	row "(d)" "scancel --user=root of $nrec records ($ntask jobs), rc=$rc" "$(dt "$t0" "$t1") s (queue empty after $(dt "$t0" "$t2") s)"
fi

if has e; then
	drain
	say "(e) $N_E2E x sbatch --wrap=true -n1, until all finished"
	mark
	dl=$((SECONDS + 600)) n=0 t0=$(now)
	for ((i = 0; i < N_E2E && SECONDS < dl; i++)); do
		timeout 30 sbatch --wrap=true -p normal -n1 -o /dev/null -J bE >/dev/null && n=$((n + 1))
	done
	ts=$(now)
	while (($(live normal) > 0 && SECONDS < dl)); do sleep 0.2; done
	t1=$(now) left=$(live normal) el=$(dt "$t0" "$t1")
	row "(e)" "$n x 'sbatch --wrap=true -n1' first submit -> last finished" "$el s = $(div "$n" "$el") jobs/s (submit phase $(dt "$t0" "$ts") s, unfinished=$left)"
fi

if has f; then
	drain
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
		timeout 30 sbatch -p normal -N "$N" --ntasks-per-node=1 --gres=gpu:$g --time=$t -o /dev/null -J bF --wrap="sleep $sl" >/dev/null && n=$((n + 1))
	done
	ts=$(now) dl=$((SECONDS + 600))
	while (($(live normal) > 0 && SECONDS < dl)); do sleep 0.2; done
	t1=$(now) left=$(live normal)
	ngpu=$(timeout 60 sinfo -h -N -p normal -o '%N %G' | sort -u | awk '$2 ~ /^gpu/ {n = split($2, a, ":"); s += a[n]} END{print s+0}')
	lb=$(awk -v a=$gpusec -v b="$ngpu" -v m=$maxsl 'BEGIN{x=a/b; if (m>x) x=m; printf "%.1f", x}')
	row "(f)" "$n GPU jobs gpu:{1,2,4,8} x -N{1,2,4}, sleep 1-3 s, makespan" "$(dt "$t0" "$t1") s (submit phase $(dt "$t0" "$ts") s; GPU-s=$gpusec on $ngpu GPUs, lower bound ${lb} s; unfinished=$left)"
fi

has big && part_big
has l && part_latency
has idle && part_idle loam
drain
cluster_down

if [ "${PEER:-1}" = 1 ] && peer_parts=$(peer_parts_of "$PARTS") && [ -n "$peer_parts" ]; then
	say "the peer: FRESH=$PEER_FRESH $peer/bench.sh $peer_parts"
	# shellcheck disable=SC2086
	if ! PATH=$peer_path FRESH=$PEER_FRESH "$peer/bench.sh" $peer_parts >"$work/peer.txt" 2>"$work/peer.err"; then
		# Its restart can time out on a loaded machine (setup.sh waits 20 s
		# for slurmctld) and leave the peer without its slurmd: others use
		# it, so bring it back, then measure it as it runs.
		say "peer bench.sh failed: $(tail -3 "$work/peer.err"); restoring the peer and retrying with FRESH=0"
		PATH=$peer_path SMOKE=0 "$peer/setup.sh" >&2 || say "peer setup.sh failed too"
		# shellcheck disable=SC2086
		PATH=$peer_path FRESH=0 "$peer/bench.sh" $peer_parts >"$work/peer.txt" 2>"$work/peer.err" ||
			say "peer bench.sh failed again: $(tail -3 "$work/peer.err")"
	fi
	grep '^(' "$work/peer.txt" >"$work/peer.rows" || true
fi
PATH=$peer_path
hash -r
has idle && [ "${PEER:-1}" = 1 ] && part_idle peer

report | tee "$work/report"
if [ "$PARTS" = "$ALL" ] && [ "${PEER:-1}" = 1 ]; then
	cp "$work/report" "$here/results.txt"
fi
{ cat "$work/report"; echo; } >>"$here/results-history.txt"
