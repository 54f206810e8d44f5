#!/bin/sh
# Replays every benchmark trace with fcfs, easy and loam side by side and
# writes, per trace, the table (results/NAME.txt), the JSON
# (results/NAME.json) and the decision logs (results/logs/NAME.POLICY.txt).
# Usage: bench/sim/run.sh [NAME...]   (default: every trace below)
# Environment: OUT (results directory), SSIM_FLAGS (extra ssim flags).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$root/bench/sim/results}
mkdir -p "$out/logs"
(cd "$root" && CGO_ENABLED=0 go build -o bin/ssim ./tools/ssim)

# name trace cluster
benches="alibaba alibaba-dense.csv alibaba
llm-load07 llm-load07.csv llm
llm-load09 llm-load09.csv llm
llm-load11 llm-load11.csv llm"

echo "$benches" | while read -r name trace conf; do
	if [ $# -gt 0 ] && ! echo " $* " | grep -q " $name "; then
		continue
	fi
	echo "== $name: ssim --trace bench/traces/$trace --conf bench/sim/$conf/slurm.conf --checkpoint 1h ${SSIM_FLAGS:-}"
	# shellcheck disable=SC2086
	"$root/bin/ssim" --trace "$root/bench/traces/$trace" --conf "$root/bench/sim/$conf/slurm.conf" \
		--policies fcfs,easy,loam --checkpoint 1h ${SSIM_FLAGS:-} \
		--log "$out/logs/$name.txt" --json-out "$out/$name.json" | tee "$out/$name.txt"
done
