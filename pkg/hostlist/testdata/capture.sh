#!/bin/bash
# capture.sh regenerates the golden files of this directory from a running
# Slurm (22.05 on the development host). The tests only read the golden
# files; they never need Slurm. Usage: ./capture.sh (from this directory).
#
#   hostnames.golden  input<TAB>`scontrol show hostnames input`, names joined
#                     by spaces, or ERROR when Slurm rejects the list
#   hostlist.golden   input<TAB>`scontrol show hostlist input`<TAB>the same
#                     for the expanded names joined by commas
#   compress.golden   input<TAB>`scontrol show hostlistsorted` of the unique
#                     names of input; kept only when feeding the names in
#                     input order and in reverse order gives the same
#                     answer (Slurm's sort depends on the input order for
#                     some mixes of zero-padded widths)
set -eu
cd "$(dirname "$0")"

inputs() { grep -v -e '^#' -e '^$' "$1"; }

expand() { # prints names joined by spaces, or ERROR
	local out err
	err=$(mktemp)
	out=$(scontrol show hostnames "$1" 2>"$err" | tr '\n' ' ' | sed 's/ $//')
	if [ -s "$err" ] || [[ $out == "Invalid hostlist"* ]]; then
		echo ERROR
	else
		echo "$out"
	fi
	rm -f "$err"
}

: >hostnames.golden
: >hostlist.golden
inputs lists.in | while IFS= read -r in; do
	printf '%s\t%s\n' "$in" "$(expand "$in")" >>hostnames.golden
	out=$(expand "$in")
	[ "$out" = ERROR ] && continue
	names=$(scontrol show hostnames "$in" | paste -sd,)
	printf '%s\t%s\t%s\n' "$in" "$(scontrol show hostlist "$in")" \
		"$(scontrol show hostlist "$names")" >>hostlist.golden
done

: >compress.golden
inputs compress.in | while IFS= read -r in; do
	uniq=$(scontrol show hostnames "$in" | awk '!seen[$0]++')
	fwd=$(scontrol show hostlistsorted "$(echo "$uniq" | paste -sd,)")
	rev=$(scontrol show hostlistsorted "$(echo "$uniq" | tac | paste -sd,)")
	if [ "$fwd" != "$rev" ]; then
		echo "skipped, order-dependent in Slurm: $in ($fwd vs $rev)" >&2
		continue
	fi
	printf '%s\t%s\n' "$in" "$fwd" >>compress.golden
done

# slurm.golden: input<TAB>`show hostnames` names joined by spaces<TAB>`show
# hostlist`<TAB>`show hostlistsorted`<TAB>the standard error of `show
# hostnames`, lines joined by "|".
: >slurm.golden
inputs slurm.in | while IFS= read -r in; do
	err=$(mktemp)
	out=$(scontrol show hostnames "$in" 2>"$err" | tr '\n' ' ' | sed 's/ $//')
	printf '%s\t%s\t%s\t%s\t%s\n' "$in" "$out" "$(scontrol show hostlist "$in" 2>/dev/null)" \
		"$(scontrol show hostlistsorted "$in" 2>/dev/null)" "$(paste -sd'|' "$err")" >>slurm.golden
	rm -f "$err"
done
