#!/bin/bash
# capture-scontrol-stdio.sh: regenerate scontrol-stdio.txt from the Slurm peer.
#
# Each pattern is a held batch job's --output; the golden line holds what
# scontrol show job prints as StdOut= (relative to the scratch directory),
# and what squeue -O StdOut prints (the pattern as written):
#
#   pattern <TAB> job_id <TAB> StdOut= <TAB> squeue StdOut
#
# The job name is "nm", the user root. Usage: ./capture-scontrol-stdio.sh > scontrol-stdio.txt
set -euo pipefail
work=$(mktemp -d /tmp/loam-stdio.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
for p in 'a-%j' 'b-%J' 'c-%A' 'd-%a' 'e-%N' 'f-%n' 'g-%t' 'h-%s' 'i-%u' 'j-%x' \
	'k-%%' 'l-%5j' 'm-%3a' 'n-%q' 'o-%-x' 'p-%8u' 'r-%0j' 't-%%j' 'u-%%%j' \
	'v-%12j%' 'F-%' 'G-\%j-%j' 'H-%3q' 'J-%2' 'K-a\\b-%j' 'L-%j.%x.%u.out' \
	'N-%b' 'O-%A_%a' 'P-%1x' 'R-%%%' 'S-%5'; do
	id=$(/usr/bin/sbatch --parsable --hold -J nm -o "$p" --wrap true)
	shown=$(/usr/bin/scontrol show job "$id" | grep -o 'StdOut=.*' | sed "s#^StdOut=$work/##")
	raw=$(/usr/bin/squeue -h -j "$id" -O 'StdOut:200' | sed "s#^$work/##; s/ *\$//")
	/usr/bin/scancel "$id"
	printf '%s\t%s\t%s\t%s\n' "$p" "$id" "$shown" "$raw"
done
