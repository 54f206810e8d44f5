package controller

import (
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// The end of an admin reservation, as Slurm 22.05 runs it. A job still
// running in it when it ends may go on for ResvOverRun (slurm.conf,
// minutes, default 0, UNLIMITED); after that it ends as TIMEOUT, reason
// TimeLimit, its node daemon printing the time limit's "CANCELLED ... DUE
// TO TIME LIMIT" line. The reservation itself stays (shown INACTIVE)
// until no job runs in it any more; then it is deleted, and the jobs
// still pending in it are held as RESV_DEL_HOLD (holdResvDeleted).

// checkAdvEnds does what the reservations' end times call for at now.
// Housekeeping calls it every tick and every cycle first. The caller
// holds c.mu.
func (c *Controller) checkAdvEnds(b *batch, now time.Time) {
	c.checkAdvPurges(b, now) // advresv_flags.go
	overrun := c.confNow().conf.ResvOverRun
	var purged, moved []string
	for _, r := range c.adv.sorted() {
		if r.End > now.Unix() {
			continue
		}
		pending, running := c.advJobs(r.Name)
		for _, j := range running {
			if overrunPassed(r.End, overrun, now) {
				c.log.WithField("job_id", j.ID).WithField("reservation", r.Name).Info("reservation ended: ending its job")
				c.stopRunning(b, j, job.Timeout, job.ReasonTimeLimit, c.killWait())
			}
		}
		if len(running) > 0 {
			continue // the job ends first; the reservation goes after it
		}
		if r.recurring() {
			moved = append(moved, r.Name) // its pending jobs wait for the next window
			continue
		}
		for _, j := range pending {
			if r.has(api.ResvFlagNoHoldJobs) {
				c.leaveEndedResv(b, j) // advresv_flags.go
				continue
			}
			c.holdResvDeleted(b, j, r.Name)
		}
		purged = append(purged, r.Name)
	}
	if len(purged) == 0 && len(moved) == 0 {
		return
	}
	if len(purged) > 0 {
		c.log.WithField("reservations", purged).Info("reservations ended")
	}
	if len(moved) > 0 {
		c.log.WithField("reservations", moved).Info("recurring reservations moved to their next window")
	}
	c.endAdvResvs(b, purged, moved, now) // advresv_flags.go
}

// overrunPassed reports whether a job running in a reservation that ended
// at end has used up ResvOverRun at now (Slurm ends it once end+overrun
// is in the past).
func overrunPassed(end int64, overrun time.Duration, now time.Time) bool {
	if overrun == slurmtime.Unlimited {
		return false
	}
	return now.After(time.Unix(end, 0).Add(overrun))
}
