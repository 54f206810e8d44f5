package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// stepWhileSuspended answers a step asked for in a suspended job. As in
// Slurm 22.05 (step_create), no step starts while its job is suspended:
// srun waits and asks again, and the step starts once the job is resumed.
func stepWhileSuspended() *api.Error { return api.NewError(api.CodeDisabled) }

// suspendedAt is the seconds r's current run has spent suspended up to
// now, the current suspension included.
func suspendedAt(r *jobRecord, now int64) int64 {
	secs := r.St.Suspended
	if r.St.State == job.Suspended {
		secs += max(now-r.St.SuspendTime, 0)
	}
	return secs
}

// stepSuspended is the seconds step s of job r has spent suspended with
// its job: up to now while it runs, its recorded total once it ended. A
// step never starts while its job is suspended, so this is the job's time
// suspended since s started.
func stepSuspended(r *jobRecord, s *stepRecord, now int64) int64 {
	if !s.running() || r == nil {
		return s.Suspended
	}
	return max(suspendedAt(r, now)-s.SuspendedBase, 0)
}

// activeSecs is sacct's Elapsed: the time from start to end less the time
// suspended, as Slurm's accounting reports it (a suspended job's clock
// stands still).
func activeSecs(start, end, suspended int64) int64 {
	return max(end-start-suspended, 0)
}
