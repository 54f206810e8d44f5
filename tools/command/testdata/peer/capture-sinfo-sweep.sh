#!/bin/bash
# capture-sinfo-sweep.sh [CASES DIR]: records CASES (sinfo_sweep_cases.txt)
# against the peer into DIR (sinfo-sweep/), each case with the nodes and partitions read in the
# same second (as capture.sh does for sinfo). Drains the idle cpu008 for
# the run and resumes it.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
scontrol update nodename=cpu008 state=drain reason="si sweep test"
trap 'scontrol update nodename=cpu008 state=resume; rm -rf "$work"' EXIT
cases=${1:-sinfo_sweep_cases.txt} dir=${2:-sinfo-sweep} n=0
mkdir -p "$dir"
rm -f "$dir"/*.txt "$dir"/*.nodes "$dir"/*.parts
while IFS= read -r line; do
	[[ -z "$line" || "$line" == \#* ]] && continue
	n=$((n + 1))
	name=$(printf '%02d-%s' "$n" "${line%%:*}")
	args=${line#*:}
	eval "set -- ${args# }"
	for try in 1 2 3 4 5; do
		t0=$(date +%s)
		scontrol show node -d >"$work/nodes"
		scontrol show partition >"$work/parts"
		set +e
		out=$(sinfo "$@" 2>"$work/err"; echo "x$?")
		set -e
		[[ $t0 == "$(date +%s)" ]] && break
	done
	cp "$work/nodes" "$dir/$name.nodes"
	cp "$work/parts" "$dir/$name.parts"
	rc=${out##*x}
	out=${out%x*}
	{
		echo "cmd sinfo"
		for a in "$@"; do echo "arg $a"; done
		echo "now $t0"
		echo "exit $rc"
		echo "-- stdout --"
		printf '%s' "$out"
		echo "-- stderr --"
		cat "$work/err"
	} >"$dir/$name.txt"
done <"$cases"
echo "captured $n sinfo cases"
