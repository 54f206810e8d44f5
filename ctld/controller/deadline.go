package controller

import (
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// deadlineMissed tells whether pending job r, eligible now, could no
// longer end before its --deadline if it started now: Slurm's scheduler
// ends such a job DEADLINE when it first looks at it, without running it
// (the peer's --deadline=now+60 -t 5 ends DEADLINE, ExitCode 0:1, at
// once). The shortest run is --time-min when given, else the time
// limit; an unlimited one is only judged by the deadline itself. A held
// job or one waiting for --begin is not looked at yet.
func deadlineMissed(r *jobRecord, now time.Time) bool {
	st := &r.St
	if st.Deadline == 0 || st.Hold != NotHeld || st.Begin > now.Unix() {
		return false
	}
	run := st.TimeLimit
	if r.Req.TimeMin != nil && *r.Req.TimeMin > 0 {
		run = int64(*r.Req.TimeMin / time.Second)
	}
	if run == api.UnlimitedSeconds || run < 0 {
		run = 0
	}
	return now.Unix()+run > st.Deadline
}

// deadlineExit is the exit code Slurm gives a job it ended DEADLINE
// before it ran ("0:1").
var deadlineExit = job.ExitCode{Signal: 1}

// priorityEstimator is an Engine that can give a job's priority before
// any cycle ran (schedengine does).
type priorityEstimator interface {
	Priority(j *EngineJob, now time.Time) (int64, error)
}

// endMissedAtSubmit ends a job whose deadline cannot be met when it is
// submitted, with the priority slurmctld gave it at submission (the peer
// shows Priority=12 for such a job, not 0): Loam's priorities otherwise
// come from the scheduling cycles, which never see this job.
func (c *Controller) endMissedAtSubmit(r *jobRecord) {
	if pe, ok := c.eng.(priorityEstimator); ok {
		if p, err := pe.Priority(c.engineJob(r), c.now()); err == nil {
			r.St.Priority = p
		} else {
			c.log.WithError(err).WithField("job_id", r.ID).Debug("no priority for a job past its deadline")
		}
	}
	c.finish(r, job.Deadline, job.ReasonDeadLine, deadlineExit)
}
