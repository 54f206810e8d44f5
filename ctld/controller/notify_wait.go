package controller

import (
	"context"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/job"
)

// maxNoticeWait bounds one notice wait, in seconds (the client's request
// timeout is a minute).
const maxNoticeWait = 60

// postNotice puts msg on job jid's notice board when an srun or salloc
// holds the job (an interactive allocation, pending or running) and
// reports whether it did; the caller ran notify's checks before.
func (c *Controller) postNotice(jid uint32, msg string) bool {
	c.mu.RLock()
	r := c.jobs[jid]
	held := r != nil && allocationHeld(r)
	c.mu.RUnlock()
	if !held {
		return false
	}
	if n := c.notices.post(jid, msg); n > 0 {
		c.log.WithField("job_id", jid).WithField("dropped", n).Warn("job notify: nobody collects the notices; dropped the oldest")
	}
	c.pruneNotices()
	return true
}

// allocationHeld reports whether r is an interactive allocation its
// client still waits for or runs in: Slurm delivers to the client of a
// pending or running job, not to a suspended or ending one.
func allocationHeld(r *jobRecord) bool {
	if r.Req.Script != "" || r.finished() || r.St.EndState != "" {
		return false
	}
	switch r.St.State {
	case job.Pending, job.Configuring, job.Running:
		return true
	}
	return false
}

// pruneNotices forgets the notices of jobs that have ended.
func (c *Controller) pruneNotices() {
	ids := c.notices.ids()
	var gone []uint32
	c.mu.RLock()
	for _, id := range ids {
		if r := c.jobs[id]; r == nil || r.finished() || r.St.EndState != "" {
			gone = append(gone, id)
		}
	}
	c.mu.RUnlock()
	c.notices.drop(gone...)
}

// handleNoticeWait answers an srun's or salloc's wait for its job's
// notices: at once when there are some after the request's After or the
// job has ended, else at the next notice or when the wait is over.
func (c *Controller) handleNoticeWait(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.NoticeWaitRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	timer := time.NewTimer(time.Duration(min(max(in.Timeout, 0), maxNoticeWait)) * time.Second)
	defer timer.Stop()
	for {
		ended, aerr := c.noticeJobEnded(id, in.JobID)
		if aerr != nil {
			return nil, aerr
		}
		if ended {
			c.notices.drop(in.JobID)
			return &api.NoticeWaitResponse{Ended: true}, nil
		}
		list, wake := c.notices.take(in.JobID, in.After)
		if len(list) > 0 {
			return &api.NoticeWaitResponse{Notices: list}, nil
		}
		select {
		case <-ctx.Done():
			return &api.NoticeWaitResponse{}, nil
		case <-timer.C:
			return &api.NoticeWaitResponse{}, nil
		case <-wake:
		}
	}
}

// noticeJobEnded checks that id may read job jid's notices (its owner or
// an operator) and reports whether the job has ended.
func (c *Controller) noticeJobEnded(id auth.Identity, jid uint32) (bool, *api.Error) {
	c.mu.RLock()
	r := c.jobs[jid]
	switch {
	case r == nil:
		c.mu.RUnlock()
		if _, ok := c.lookupEnded(jid); ok {
			return true, nil
		}
		return false, api.NewError(api.CodeInvalidJobID)
	case !c.canModify(id, r):
		c.mu.RUnlock()
		return false, api.Errorf(api.CodeAccessDenied, "job %d belongs to %s", jid, r.Req.UserName)
	}
	ended := r.finished() || r.St.EndState != ""
	c.mu.RUnlock()
	return ended, nil
}
