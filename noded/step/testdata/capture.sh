#!/bin/bash
# capture.sh: capture what the Slurm peer's srun gives each task inside a
# batch job of two nodes with two GPUs each ("sbatch -N2
# --ntasks-per-node=2 --gres=gpu:2"): the batch script's environment
# (batch.peer) and each task's for several srun command lines
# (<case>-<task>.peer), filtered to the SLURM_* and GPU variables, with
# pids and srun's port masked. Usage: ./capture.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/loam-step.XXXXXX)
trap 'rm -rf "$work"' EXIT
cat >"$work/job.sh" <<'JOB'
#!/bin/bash
env >"$WORK/batch.env"
dump='env >"$WORK/$CASE-$SLURM_PROCID.env"'
CASE=plain srun -l bash -c "$dump"
CASE=gpus-per-task srun -N2 -n3 --gpus-per-task=1 bash -c "$dump"
CASE=map-gpu srun -N1 -n2 --gpu-bind=map_gpu:1,0 bash -c "$dump"
CASE=cpus-per-task srun -N2 -n2 -c2 --cpu-bind=map_cpu:0,1 bash -c "$dump"
JOB
chmod +x "$work/job.sh"
cd "$work"
id=$(env -i PATH=/usr/bin:/bin HOME="$HOME" WORK="$work" sbatch --parsable -N2 --ntasks-per-node=2 \
	--gres=gpu:2 -o "$work/out" job.sh)
for _ in $(seq 60); do
	[ -z "$(squeue -h -j "$id" 2>/dev/null)" ] && break
	sleep 1
done
for f in "$work"/*.env; do
	grep -E '^(SLURM[A-Z_0-9]*|CUDA_VISIBLE_DEVICES|GPU_DEVICE_ORDINAL|ROCR_VISIBLE_DEVICES|ZE_AFFINITY_MASK)=' "$f" |
		sed -e 's/^SLURM_TASK_PID=.*/SLURM_TASK_PID=<pid>/' \
			-e 's/^\(SLURM_SRUN_COMM_PORT\|SLURM_STEP_LAUNCHER_PORT\)=.*/\1=<port>/' \
			-e "s/=$id\$/=<job>/" | sort >"$here/$(basename "$f" .env).peer"
done
echo "job $id:"; cat "$work/out"
