#!/bin/bash
# demo.sh: Loam's demo (run by `make demo`, which builds first).
#
# Brings up a local cluster (one loam-ctld and four emulated nodes with
# eight fake GPUs each, on loopback, state in LOAM_DEMO_DIR, default
# /tmp/loam-demo), submits the sample scripts in contrib/examples/ (a
# single-GPU job, a 2-node x 8-GPU job, a 4-task array), waits for them
# (at most 120 s), shows squeue, sinfo and the jobs' output, and takes the
# cluster down again. KEEP=1 leaves it running. `demo.sh down` stops it.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
export LOAM_CLUSTER_DIR=${LOAM_DEMO_DIR:-/tmp/loam-demo}
export LOAM_NODES=4
bin=${LOAM_BIN:-$repo/bin}
cluster=$repo/contrib/demo/cluster.sh

if [ "${1:-}" = down ]; then
	exec "$cluster" down
fi
[ -z "${1:-}" ] || { echo "usage: $0 [down]" >&2; exit 2; }
for b in loam-ctld loam-noded sbatch squeue sinfo scontrol; do
	[ -x "$bin/$b" ] || { echo "demo.sh: $bin/$b is missing: run make demo (it builds first)" >&2; exit 1; }
done

banner() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }

banner "starting a local cluster in $LOAM_CLUSTER_DIR"
"$cluster" down >/dev/null 2>&1 || true
rm -rf "$LOAM_CLUSTER_DIR"
"$cluster" up >"$LOAM_CLUSTER_DIR.env"
# shellcheck disable=SC1090
. "$LOAM_CLUSTER_DIR.env"
cat "$LOAM_CLUSTER_DIR.env"
[ "${KEEP:-0}" = 1 ] || trap '"$cluster" down >/dev/null 2>&1; banner "cluster stopped"' EXIT

work=$LOAM_CLUSTER_DIR/work
mkdir -p "$work"
cp "$repo"/contrib/examples/*.sbatch "$work/"
cd "$work"

banner "sinfo"
run sinfo

banner "submitting the examples"
ids=()
for s in single-gpu.sbatch multi-node.sbatch array.sbatch; do
	printf '$ sbatch %s\n' "$s"
	out=$(sbatch --parsable "$s")
	echo "Submitted batch job $out"
	ids+=("${out%%;*}")
done

banner "squeue"
run squeue

banner "waiting for the jobs (at most 120 s)"
for ((i = 0; i < 600; i++)); do
	[ -z "$(squeue -h -o %i)" ] && break
	sleep 0.2
done
if [ -n "$(squeue -h -o %i)" ]; then
	echo "still running after 120 s:"
	squeue
fi

banner "sacct"
sacct -j "$(IFS=,; echo "${ids[*]}")" -X -o JobID,JobName,Partition,State,ExitCode,NodeList 2>/dev/null ||
	for id in "${ids[@]}"; do scontrol show job "$id" | grep -E 'JobId|JobState|NodeList=' ; done

banner "sinfo"
run sinfo

banner "the jobs' output"
for f in *.out; do
	printf -- '--- %s\n' "$f"
	cat "$f"
done
