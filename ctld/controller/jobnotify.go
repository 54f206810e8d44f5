package controller

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// scontrol notify, as slurmctld's job notify RPC: the job's owner or an
// operator sends a line to the job. Slurm gives it to the srun or salloc
// that holds the allocation, or, for a running batch job, writes it to
// the batch step's standard error; anything else is "presently
// disabled". Loam has no channel from the controller to a waiting srun
// or to a running batch step yet, so every live job answers as a Slurm
// job with nobody to tell does; the checks before that (unknown job,
// another user's job, an ended job) are Slurm's, in its order.

// handleNotify is scontrol notify.
func (c *Controller) handleNotify(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.NotifyRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	r := c.jobs[in.JobID]
	switch {
	case r == nil:
		return nil, api.Errorf(api.CodeInvalidJobID, "no job %d", in.JobID)
	case !c.canModify(id, r):
		return nil, api.Errorf(api.CodeUserIDMissing, "job %d belongs to %s", r.ID, r.Req.UserName)
	case r.finished() || r.St.EndState != "":
		return nil, api.NewError(api.CodeAlreadyDone)
	}
	c.log.WithField("job_id", r.ID).WithField("uid", id.UID).Info("job notify: no channel to the job's user")
	return nil, api.Errorf(api.CodeDisabled, "job %d has no srun or batch step Loam can deliver a message to", r.ID)
}
