package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// capSwitchWait stores the --switches wait the job will have: the one
// asked for, or max_switch_wait when none was, and never more than
// max_switch_wait, as slurmctld does when it accepts a job. Stored, not
// read at each cycle, so a later change of max_switch_wait leaves
// accepted jobs as they were, as in Slurm. Without --switches a wait (from
// SBATCH_WAIT4SWITCH alone) is dropped, as Slurm keeps none.
func capSwitchWait(conf *slurmconf.Config, r *job.Request) {
	if r.Switches <= 0 {
		r.Switches, r.SwitchWait = 0, nil
		return
	}
	w := maxSwitchWait(conf)
	if r.SwitchWait != nil && *r.SwitchWait >= 0 {
		w = min(w, *r.SwitchWait)
	}
	r.SwitchWait = &w
}

// maxSwitchWait is SchedulerParameters=max_switch_wait in seconds.
func maxSwitchWait(conf *slurmconf.Config) int64 {
	if conf == nil {
		return int64(slurmconf.Default().SchedulerParameters.MaxSwitchWait.Seconds())
	}
	return int64(conf.SchedulerParameters.MaxSwitchWait.Seconds())
}

// updateSwitches is scontrol update's Switches= and wait-for-switch=,
// allowed pending or running as in Slurm: the count as given (0 clears
// it), the wait capped by max_switch_wait. A job accepted without
// --switches has no wait stored, which Slurm keeps as 0: the peer shows
// Switches=3@00:00:00 after "update Switches=3" on such a job, and so
// it waits for none.
func (c *Controller) updateSwitches(q *job.Request, u *api.JobUpdate) *api.Error {
	if u.Switches != nil || u.SwitchWait != nil {
		applySwitchUpdate(q, u, maxSwitchWait(c.confNow().conf))
	}
	return nil
}

// applySwitchUpdate is updateSwitches with max_switch_wait given.
func applySwitchUpdate(q *job.Request, u *api.JobUpdate, maxWait int64) {
	if u.Switches != nil {
		q.Switches = max(*u.Switches, 0)
	}
	if u.SwitchWait != nil {
		w := min(max(*u.SwitchWait, 0), maxWait)
		q.SwitchWait = &w
	}
	if q.SwitchWait == nil {
		var none int64
		q.SwitchWait = &none
	}
}
