package controller

import (
	"context"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/job"
)

// scontrol notify, as slurmctld's job notify RPC: the job's owner or an
// operator sends a line to the job. Slurm gives it to the srun or salloc
// that holds the allocation, or, for a running batch job, has the batch
// step write "slurmstepd-NODE: error: MSG" to its standard error;
// anything else is "presently disabled". Loam delivers to a running
// batch job through its batch node's daemon and supervisor, and to the
// srun or salloc holding a pending or running allocation through the
// notice board it waits on (notify_board.go). Unlike Slurm, whose
// controller queues the message and answers success before the node has
// it, Loam answers a batch job's notify once the line is written, and
// "presently disabled" when the batch step cannot be reached. The
// checks before that (unknown job, another user's job, an ended job) are
// Slurm's, in its order.

// notifyTimeout bounds the delivery to the batch node.
const notifyTimeout = 15 * time.Second

// handleNotify is scontrol notify.
func (c *Controller) handleNotify(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.NotifyRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	target, aerr := c.notifyTarget(id, in.JobID)
	if aerr != nil {
		return nil, aerr
	}
	log := c.log.WithField("job_id", in.JobID).WithField("uid", id.UID)
	if target == nil && c.postNotice(in.JobID, in.Message) {
		log.Info("job notify: posted for the job's srun or salloc")
		return api.NotifyResponse{}, nil
	}
	if target == nil {
		log.Info("job notify: no srun or batch step to deliver to")
		return nil, api.Errorf(api.CodeDisabled, "job %d has no batch step Loam can deliver a message to", in.JobID)
	}
	ctx, cancel := context.WithTimeout(ctx, notifyTimeout)
	defer cancel()
	resp, err := c.noded.NotifyJob(ctx, target.addr, &in)
	switch {
	case err != nil:
		log.WithError(err).WithField("node", target.node).Warn("job notify: batch node unreachable")
	case resp.Unknown:
		log.WithField("node", target.node).Info("job notify: the batch node runs no batch step of the job")
	default:
		log.WithField("node", target.node).Info("job notify delivered")
		return api.NotifyResponse{}, nil
	}
	return nil, api.Errorf(api.CodeDisabled, "job %d: its batch step on %s cannot be reached", in.JobID, target.node)
}

// notifyTarget runs Slurm's checks on a notification of job jid by id
// and returns the batch node to deliver it to, or nil when there is none:
// the job is not running, has no batch step (an srun or salloc
// allocation), or its batch node is not responding.
func (c *Controller) notifyTarget(id auth.Identity, jid uint32) (*nodeTarget, *api.Error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	r := c.jobs[jid]
	switch {
	case r == nil:
		return nil, api.Errorf(api.CodeInvalidJobID, "no job %d", jid)
	case !c.canModify(id, r):
		return nil, api.Errorf(api.CodeUserIDMissing, "job %d belongs to %s", r.ID, r.Req.UserName)
	case r.finished() || r.St.EndState != "":
		return nil, api.NewError(api.CodeAlreadyDone)
	case r.St.State != job.Running || r.Req.Script == "":
		return nil, nil
	}
	t, ok := c.target(r.St.BatchHost)
	if !ok {
		return nil, nil
	}
	return &t, nil
}
