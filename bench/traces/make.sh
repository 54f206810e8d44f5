#!/bin/sh
# Rebuilds the traces in this directory. They are committed, so the
# benchmark does not need this; it documents (and checks) where they came
# from. Usage: bench/traces/make.sh [DIR-WITH-alibaba_openb_gpu_2023.csv]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=${1:-/work/shared/traces}/alibaba_openb_gpu_2023.csv
ssim=${SSIM:-$here/../../bin/ssim}

# Alibaba GPU trace v2023 (alibaba/clusterdata:cluster-trace-gpu-v2023,
# normalized as /work/shared/traces/README.md describes): its dense part,
# submit_s >= 9663000 (day 111.85), rebased to start at 0. The QoS class
# becomes the tenant (qos=LS -> ls) and picks the queue: LS and Burstable
# pods are normal work, BE (best effort) is batch, Guaranteed is urgent.
awk -F, -v OFS=, '
NR == 1 { print $0, "queue"; next }
$2 >= 9663000 {
	$2 -= 9663000
	t = tolower($9); sub(/^qos=/, "", t); $9 = t
	q = "normal"
	if (t == "be") q = "batch"
	if (t == "guaranteed") q = "urgent"
	print $0, q
}' "$src" > "$here/alibaba-dense.csv"

# Generated LLM-era traces for the 256-node llm cluster (bench/sim/llm),
# one week at 70%, 90% and 110% offered load.
for load in 0.7 0.9 1.1; do
	name=$(echo "$load" | tr -d .)
	"$ssim" gen --seed 1 --load "$load" --nodes 256 --days 28 > "$here/llm-load$name.csv"
done
