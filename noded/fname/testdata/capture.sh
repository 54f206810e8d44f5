#!/bin/bash
# capture.sh: regenerate patterns.golden from the Slurm peer on this host.
#
# Each pattern is used as a batch job's --output file name, in a directory
# of its own so the file slurmd created can be found. The job writes its own
# SLURM_JOB_ID, SLURM_ARRAY_JOB_ID and SLURM_ARRAY_TASK_ID into the file, so
# the golden line holds every input of the expansion next to its result:
#
#   pattern <TAB> job_id <TAB> array_job_id <TAB> array_task_id <TAB> result
#
# The job name is "nm", the user root, the batch host's hostname is the
# peer's ($(hostname)). Usage: ./capture.sh > patterns.golden
set -euo pipefail
work=$(mktemp -d /tmp/loam-fname.XXXXXX)
trap 'rm -rf "$work"' EXIT

plain=(
	'a-%j' 'b-%J' 'c-%A' 'd-%a' 'e-%N' 'f-%n' 'g-%t' 'h-%s' 'i-%u' 'j-%x' 'k-%%'
	'l-%5j' 'm-%3a' 'n-%q' 'o-%-x' 'p-%8u' 'q-%2x' 'r-%0j' 's-%.out' 't-%%j'
	'u-%%%j' 'v-%12j%' 'w-%9j' 'x-%10j' 'y-%11j' 'z-%1j' 'A-%3t' 'B-%2n'
	'C-%5N' 'D-%3s' 'E-%4%' 'F-%' 'G-\%j-%j' 'H-%3q' 'I-%5%' 'J-%2'
	'K-a\\b-%j' 'L-%j.%x.%u.out' 'M-%5J'
)
array=('aa-%A_%a' 'ab-%4a-%j' 'ac-%5A-%J' 'ad-%a%a')

submit() { # dir pattern [sbatch options...]
	local d=$1 p=$2
	shift 2
	mkdir -p "$work/$d"
	sbatch --parsable -J nm "$@" -o "$work/$d/$p" \
		--wrap='echo "$SLURM_JOB_ID ${SLURM_ARRAY_JOB_ID:--} ${SLURM_ARRAY_TASK_ID:--}"' >/dev/null
}

n=0
for p in "${plain[@]}"; do submit "p$((n++))" "$p"; done
for p in "${array[@]}"; do submit "p$((n++))" "$p" --array=1-2; done

# Wait (bounded) for every job to finish.
for _ in $(seq 120); do
	[ -z "$(squeue -h -n nm -u "$(id -un)")" ] && break
	sleep 1
done

n=0
for p in "${plain[@]}" "${array[@]}"; do
	for f in "$work/p$n"/*; do
		read -r id aid tid <"$f"
		printf '%s\t%s\t%s\t%s\t%s\n' "$p" "$id" "$aid" "$tid" "$(basename "$f")"
	done
	n=$((n + 1))
done
