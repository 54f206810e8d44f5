package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// applyReboot gives a --reboot job whole nodes, whatever else it asked
// (--oversubscribe, --exclusive=user): Slurm does, to reboot them, and
// shows OverSubscribe=NO. Loam reboots nothing.
func applyReboot(r *job.Request) {
	if r.Reboot {
		r.Exclusive = job.ExclusiveNodes
	}
}

// schedRequest is q as the scheduler reads it: a --reboot job takes
// whole nodes whatever sharing it shows. Slurm gives such a job idle
// nodes, yet an update of Reboot= or OverSubscribe= after applyReboot
// leaves the sharing shown as the peer shows it (Reboot=1 beside
// OverSubscribe=OK or YES).
func schedRequest(q *job.Request) *job.Request {
	if !q.Reboot || q.Exclusive == job.ExclusiveNodes {
		return q
	}
	s := *q
	s.Exclusive = job.ExclusiveNodes
	return &s
}

// fillRecorded copies the options Loam records and shows without acting
// on them (job.Request) into the job record, in the forms Slurm shows.
func fillRecorded(j *api.Job, q *job.Request) {
	j.Reboot, j.BurstBuffer, j.Network, j.ClusterFeatures = q.Reboot, q.BurstBuffer, q.Network, q.ClusterConstraint
	j.DelayBoot = delayBoot(q.DelayBoot)
	if q.PowerLevel {
		j.Power = "LEVEL"
	}
	j.GresFlags = string(q.GresFlags)
	if q.GPUsPerSocket != "" {
		j.TRESPerSocket = "gres:gpu:" + q.GPUsPerSocket
	}
}

// delayBoot is --delay-boot as Slurm keeps it, in an unsigned 32-bit
// field: UNLIMITED stays so, a negative time wraps around (the peer shows
// --delay-boot=-5 as 49705-06:28:16).
func delayBoot(secs int64) int64 {
	if secs == slurmtime.InfiniteSecs {
		return api.UnlimitedSeconds
	}
	return int64(uint32(secs))
}
