package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// refuseBurstBuffer answers BurstBuffer= before any other check, as
// Slurm's controller does: a job's burst buffer cannot change, except
// that an operator may clear it on a finished job (which Loam, with no
// burst buffers to recover, answers as finished).
func refuseBurstBuffer(r *jobRecord, u *api.JobUpdate, operator bool) *api.Error {
	if u.BurstBuffer == nil || (r.finished() && operator && *u.BurstBuffer == "") {
		return nil
	}
	return api.NewError(api.CodeNotSupported)
}

// updateNodeUse applies OverSubscribe=, ClusterFeatures=, WCKey= and
// Reboot= in the order Slurm's controller checks them, and DelayBoot=,
// which anyone may change while the job has not ended.
func updateNodeUse(r *jobRecord, q *job.Request, u *api.JobUpdate, operator bool) *api.Error {
	if u.DelayBoot != nil {
		q.DelayBoot = *u.DelayBoot
	}
	if u.OverSubscribe != nil {
		if !r.pending() {
			return api.NewError(api.CodeJobNotPending)
		}
		if !operator {
			return api.Errorf(api.CodeAccessDenied, "only operators may change OverSubscribe")
		}
		q.Exclusive = job.Oversubscribe
		if *u.OverSubscribe == 0 {
			q.Exclusive = job.ExclusiveNodes
		}
	}
	if u.ClusterFeatures != nil {
		return api.Errorf(api.CodeError, "ClusterFeatures: Loam has no federation")
	}
	if u.WCKey != nil {
		if !r.pending() {
			return api.NewError(api.CodeJobNotPending)
		}
		q.WCKey = *u.WCKey
	}
	if u.Reboot != nil {
		if !operator {
			return api.Errorf(api.CodeAccessDenied, "only root and SlurmUser may change Reboot")
		}
		if !r.pending() {
			return api.NewError(api.CodeJobNotPending)
		}
		q.Reboot = *u.Reboot != 0
	}
	return nil
}

// updateTres applies TresBind= and TresFreq= after checking them as
// slurmctld does (job.ValidTresBind, job.ValidTresFreq, which sbatch's
// --gpu-bind and --gpu-freq share): the peer takes them from the job's
// owner on a pending or running job alike, and "" clears them. Only the
// record changes: steps bind with the batch script's SLURM_GPU_BIND, which
// the peer's update leaves as submitted.
func updateTres(q *job.Request, u *api.JobUpdate) *api.Error {
	if u.TRESBind != nil {
		if !job.ValidTresBind(*u.TRESBind) {
			return api.NewError(api.CodeInvalidTRES)
		}
		q.TRESBind = *u.TRESBind
	}
	if u.TRESFreq != nil {
		if !job.ValidTresFreq(*u.TRESFreq) {
			return api.NewError(api.CodeInvalidTRES)
		}
		q.TresFreq = *u.TRESFreq
	}
	return nil
}
