#!/bin/bash
# One training process of train.sbatch (any program started by srun gets
# the same variables). Its identity comes from Slurm's, as torchrun derives
# it:
#   RANK        = SLURM_PROCID     (0 .. WORLD_SIZE-1)
#   WORLD_SIZE  = SLURM_NTASKS
#   LOCAL_RANK  = SLURM_LOCALID    (its GPU among the node's)
#   MASTER_ADDR, MASTER_PORT from the batch script
# It "trains" TRAIN_STEPS steps of STEP_SECONDS each, saves its step
# counter to CKPT_DIR/rank-RANK every CKPT_EVERY steps and when it gets
# SIGUSR1 or SIGTERM (then exits), and starts from that checkpoint. Every
# completed step is appended to CKPT_DIR/steps-RANK, so a check can see
# that no step was lost (or done twice) across a requeue.
set -u
export RANK=${SLURM_PROCID:?not started by srun} WORLD_SIZE=${SLURM_NTASKS} LOCAL_RANK=${SLURM_LOCALID}
export MASTER_ADDR=${MASTER_ADDR:?} MASTER_PORT=${MASTER_PORT:?}
steps=${TRAIN_STEPS:-100} every=${CKPT_EVERY:-10} step_time=${STEP_SECONDS:-0.1}
ckpt=$CKPT_DIR/rank-$RANK

save() {
	echo "$step" >"$ckpt.tmp" && mv "$ckpt.tmp" "$ckpt"
}

step=0
[ -f "$ckpt" ] && step=$(cat "$ckpt")
echo "rank $RANK/$WORLD_SIZE local $LOCAL_RANK gpu ${CUDA_VISIBLE_DEVICES:-none} master $MASTER_ADDR:$MASTER_PORT: starting at step $step (restart ${SLURM_RESTART_COUNT:-0})"

stop=
trap 'stop=USR1' USR1
trap 'stop=TERM' TERM
while [ "$step" -lt "$steps" ]; do
	# A step's work. The signals go to every process of the step: the
	# sleep ignores them, the wait for it returns at once, and an
	# interrupted step is done again after the restart.
	(trap '' USR1 TERM && exec sleep "$step_time") &
	wait $! 2>/dev/null
	if [ -n "$stop" ]; then
		# A second signal (srun forwards the batch shell's) must not kill
		# the mv of the checkpoint: ignored here, it is ignored by mv too.
		trap '' USR1 TERM
		save
		echo "rank $RANK: $stop: checkpoint at step $step, exiting"
		exit 0
	fi
	step=$((step + 1))
	echo "$step" >>"$CKPT_DIR/steps-$RANK"
	if [ $((step % every)) -eq 0 ]; then
		save
	fi
done
save
echo "rank $RANK: finished $steps steps"
