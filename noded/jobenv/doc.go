// Package jobenv builds a batch script's environment the way Slurm 22.05's
// slurmd does, as captured from the peer cluster (testdata/*.peer, from
// testdata/capture.sh): the job's own variables as --export decided them
// (the controller sends them), the user's login environment when sbatch
// asked for it (--export=NONE or a list: SLURM_GET_USER_ENV=1), then the
// variables the node daemon owns, which always win:
//
//   - SLURM_JOB_ID/SLURM_JOBID, SLURM_JOB_USER/UID/GID,
//     SLURM_JOB_PARTITION, SLURM_JOB_ACCOUNT and SLURM_JOB_QOS (when set),
//     SLURM_CLUSTER_NAME, SLURM_CONF, SLURM_WORKING_CLUSTER,
//     SLURM_SUBMIT_HOST, SLURM_SUBMIT_DIR (unless sbatch sent one: it
//     sends it and SLURM_JOB_NAME, which the node does not set),
//     SLURM_PRIO_PROCESS;
//   - the allocation: SLURM_JOB_NODELIST/SLURM_NODELIST,
//     SLURM_JOB_NUM_NODES/SLURM_NNODES, SLURM_JOB_CPUS_PER_NODE and
//     SLURM_TASKS_PER_NODE in Slurm's "2(x3),1" form, SLURM_CPUS_ON_NODE,
//     SLURM_NTASKS/SLURM_NPROCS, SLURM_CPUS_PER_TASK and
//     SLURM_NTASKS_PER_NODE (only when requested), SLURM_MEM_PER_NODE,
//     SLURM_MEM_PER_CPU or SLURM_MEM_PER_GPU;
//   - the batch task: SLURMD_NODENAME, SLURM_NODEID, SLURM_PROCID,
//     SLURM_LOCALID, SLURM_GTIDS (all 0), SLURM_TOPOLOGY_ADDR(_PATTERN),
//     SLURM_NODE_ALIASES, ENVIRONMENT=BATCH, HOSTNAME (the node name),
//     TMPDIR (/tmp unless set); SLURM_TASK_PID is added by the process
//     that execs the script, which alone knows its pid;
//   - arrays: SLURM_ARRAY_JOB_ID, _TASK_ID, _TASK_COUNT, _TASK_MIN,
//     _TASK_MAX, _TASK_STEP; requeued jobs: SLURM_RESTART_COUNT (only
//     when not 0);
//   - GPUs (global indices on the node, not renumbered):
//     CUDA_VISIBLE_DEVICES, GPU_DEVICE_ORDINAL, ROCR_VISIBLE_DEVICES,
//     ZE_AFFINITY_MASK, SLURM_GPUS_ON_NODE, and SLURM_JOB_GPUS (the batch
//     host's indices).
//
// The package is pure: callers hand in the launch request, the node and,
// when wanted, the user's login environment.
package jobenv
