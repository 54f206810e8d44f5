#!/bin/bash
# supcost.sh: CPU of one trivial job on a node, daemon part and supervisor
# part, measured by supcost/ (rusage of a stand-in daemon and of its reaped
# supervisors), in alternation with an earlier supervisor when one is
# given, R rounds of N jobs each; prints each round and the medians.
#
#   ./supcost.sh                        the supervisor in bin/
#   OLD=/path/to/old/loam-supervise ./supcost.sh
#                                       also a supervisor built before the
#                                       daemon created cgroups (it makes its
#                                       own and speaks HTTP)
#
# The job's own shim and script (two /bin/sh execs) are in "supervisor+job";
# "go run ./bench/noded/supcost -shim" measures them alone.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${LOAM_BIN:-$repo/bin}
R=${R:-5}
N=${N:-300}
OLD=${OLD:-}
tool=$(mktemp /tmp/supcost.XXXXXX)
trap 'rm -f "$tool"' EXIT
(cd "$repo" && go build -o "$tool" ./bench/noded/supcost) || exit 1
med() { sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
declare -A rows
for ((r = 1; r <= R; r++)); do
	for v in ${OLD:+old} new; do
		if [ "$v" = old ]; then
			line=$("$tool" -bin "$OLD" -n "$N" -create=false -proto http) || exit 1
		else
			line=$("$tool" -bin "$bin/loam-supervise" -n "$N") || exit 1
		fi
		echo "$v: $line"
		rows[$v]+="$line"$'\n'
	done
done
for v in ${OLD:+old} new; do
	d=$(grep -o 'daemon part [0-9.]*' <<<"${rows[$v]}" | awk '{print $3}' | med)
	s=$(grep -o 'supervisor+job [0-9.]*' <<<"${rows[$v]}" | awk '{print $2}' | med)
	t=$(grep -o 'total [0-9.]*' <<<"${rows[$v]}" | awk '{print $2}' | med)
	echo "median of $R x $N jobs, $v: daemon part $d ms, supervisor+job $s ms, total $t ms"
done
