#!/bin/bash
# capture.sh regenerates the golden files of this directory from a running
# Slurm (22.05 on the development host). The tests only read the golden
# files; they never need Slurm. It submits held one-node jobs to partition
# "batch" and cancels them at once. Usage: ./capture.sh
#
#   memory.golden  input<TAB>scontrol MinMemoryNode<TAB>scontrol TRES for
#                  sbatch --mem=input; ERROR when sbatch rejects it. --mem=0
#                  asks for all of a node's memory, so its TRES shows the
#                  node's RealMemory.
#   gres.golden    option=input<TAB>scontrol TresPerNode/TresPerJob/
#                  TresPerTask; ERROR<TAB>message when sbatch or the
#                  controller rejects it
set -eu
cd "$(dirname "$0")"

inputs() { grep -v -e '^#' -e '^$' "$1"; }

field() { scontrol show job "$1" | grep -oE "(^| )$2=[^ ]*" | sed 's/^ //' | cut -d= -f2-; }

: >memory.golden
inputs memory.in | while IFS= read -r in; do
	if ! id=$(sbatch --parsable --hold -p batch -N1 "--mem=$in" --wrap=true 2>/dev/null); then
		printf '%s\tERROR\n' "$in" >>memory.golden
		continue
	fi
	printf '%s\t%s\t%s\n' "$in" "$(field "$id" MinMemoryNode)" "$(field "$id" TRES)" >>memory.golden
	scancel "$id"
done

: >gres.golden
inputs gres.in | while IFS= read -r in; do
	extra=()
	[[ $in == --gpus-per-task=* ]] && extra=(-n2)
	if ! id=$(sbatch --parsable --hold -p batch -N1 "${extra[@]}" "$in" --wrap=true 2>/tmp/gres.err); then
		printf '%s\tERROR\t%s\n' "$in" "$(sed 's/^sbatch: error: //' /tmp/gres.err | head -1)" >>gres.golden
		continue
	fi
	printf '%s\t%s\n' "$in" "$(scontrol show job "$id" | grep -oE 'TresPer(Node|Job|Task)=[^ ]*')" >>gres.golden
	scancel "$id"
done
rm -f /tmp/gres.err
