#!/bin/bash
# capture.sh: capture the batch environment the Slurm peer gives each case,
# filtered to the variables the node daemon sets (and the exported FOO,
# BAZ), with the task pid masked. Usage: ./capture.sh [case...]
#
# The .json file beside each .peer file is the launch request Loam's
# controller would send for the same job (its job id, nodes, CPUs and GPU
# indices as the peer allocated them). After a new capture, update the
# .json files to the new allocation (job ids, GPU indices).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/loam-jobenv.XXXXXX)
trap 'rm -rf "$work"' EXIT
printf '#!/bin/bash\nenv\n' >"$work/envjob.sh"
cd "$work"

declare -A opts=(
	[two-nodes-gpus]='-N2 -n4 --gres=gpu:2'
	[mem-cpus-per-task]='-c2 -n1 --mem=3000 -J myjob'
	[array-mem-per-gpu]='--array=3-7:2 --mem-per-gpu=1000 --gres=gpu:1'
	[export-none]='--export=NONE'
	[export-list]='--export=FOO,BAZ=1 -N1 --ntasks-per-node=3'
	[two-nodes-equal]='-N2 --ntasks-per-node=2 -p batch'
	[inherited-slurm-vars]=''
)
# Variables a case submits with, as sbatch run inside another job would
# (the job's own values replace some, others pass through).
declare -A envs=(
	[inherited-slurm-vars]='FOO=1 SLURM_CPUS_PER_TASK=3 SLURM_NTASKS=7 SLURM_MEM_PER_NODE=999 SLURM_ARRAY_TASK_ID=5 SLURM_STEP_ID=3'
)
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=("${!opts[@]}")
for c in "${cases[@]}"; do
	# shellcheck disable=SC2086
	env -i PATH=/usr/bin:/bin HOME="$HOME" FOO=bar ${envs[$c]:-} sbatch --parsable ${opts[$c]} -o "$work/$c-%a.out" envjob.sh >/dev/null
done
for _ in $(seq 60); do
	[ -z "$(squeue -h -n envjob.sh)" ] && break
	sleep 1
done
for c in "${cases[@]}"; do
	# An array's first task (lowest index) is the one kept.
	out=$(ls "$work/$c"-*.out | sort -V | head -1)
	grep -E '^(SLURM[A-Z_]*|CUDA_VISIBLE_DEVICES|GPU_DEVICE_ORDINAL|ROCR_VISIBLE_DEVICES|ZE_AFFINITY_MASK|ENVIRONMENT|HOSTNAME|TMPDIR|FOO|BAZ)=' "$out" |
		sed 's/^SLURM_TASK_PID=.*/SLURM_TASK_PID=<pid>/' | sort >"$here/$c.peer"
done
