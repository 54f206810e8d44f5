package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// updateAdminKeys applies AdminComment= and checks TasksPerNode=
// (operators only: "Access/permission denied" for others, as slurmctld
// answers), WorkDir= (pending jobs) and
// EndTime= (running jobs: the time limit moves by the change, rounded to
// the minute as Slurm's time_limit += (delta+30)/60; an end already past
// is "Invalid time specified", and only operators may move it later).
func (c *Controller) updateAdminKeys(r *jobRecord, q *job.Request, st *jobStatus, u *api.JobUpdate, operator bool) *api.Error {
	if u.AdminComment != nil {
		if !operator {
			return api.Errorf(api.CodeAccessDenied, "only operators set AdminComment")
		}
		q.AdminComment = *u.AdminComment
	}
	if u.TasksPerNode != nil && !operator {
		// updateShape set it; the update is refused whole.
		return api.Errorf(api.CodeAccessDenied, "only operators set TasksPerNode")
	}
	if u.WorkDir != nil {
		if !r.pending() {
			return api.NewError(api.CodeJobNotPending)
		}
		q.WorkDir = *u.WorkDir
	}
	if u.EndTime == nil {
		return nil
	}
	now := unix(c.now())
	switch {
	case !r.running():
		return api.NewError(api.CodeJobNotRunning)
	case *u.EndTime < now:
		return api.NewError(api.CodeInvalidTimeValue)
	case st.TimeLimit == api.UnlimitedSeconds:
		if !operator {
			return api.Errorf(api.CodeAccessDenied, "only operators set the end of a job without a time limit")
		}
		st.TimeLimit = (*u.EndTime - st.Start + 30) / 60 * 60 // no end to move: the new one sets the limit
		return nil
	}
	end := st.Start + st.TimeLimit
	if *u.EndTime > end && !operator {
		return api.Errorf(api.CodeAccessDenied, "only operators may move a job's end later")
	}
	st.TimeLimit += (*u.EndTime - end + 30) / 60 * 60
	return nil
}
