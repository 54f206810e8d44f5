package controller

import (
	"time"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/notify"
)

// Notifications (R12) follow Slurm's --mail-type: BEGIN when the job
// starts, END when it ends (FAIL instead when it failed and FAIL was
// asked), REQUEUE when it is requeued, TIME_LIMIT_50/80/90 and TIME_LIMIT
// as its run time crosses them; Loam adds PREEMPT (preempt.go), sent to
// owners who asked for REQUEUE, END or FAIL, instead of those mails. The
// webhook, when configured, gets every event whatever the mail type.
// Events are queued to package notify and never wait for delivery.

// jobEvent is r's notification of kind, with the times Slurm's subject
// shows.
func (c *Controller) jobEvent(r *jobRecord, kind notify.Kind) notify.Event {
	q, st := r.Req, &r.St
	now := unix(c.now())
	e := notify.Event{Kind: kind, Time: now, Cluster: c.confNow().conf.ClusterName, JobID: r.ID,
		ArrayJobID: st.ArrayJobID, ArrayTaskID: r.taskID(), Name: q.Name, User: q.UserName, Account: st.Account,
		Partition: st.Partition, State: string(st.State), ExitStatus: st.ExitCode.Status, ExitSignal: st.ExitCode.Signal,
		Restarts: st.Restarts, MailUser: q.MailUser}
	if e.MailUser == "" {
		e.MailUser = q.UserName
	}
	if st.Start != 0 {
		e.QueuedSecs = max(st.Start-st.Submit, 0)
		end := st.End
		if end == 0 {
			end = now
		}
		e.RunSecs = max(end-st.Start, 0)
	}
	return e
}

// notifyBegin tells the owner r started.
func (c *Controller) notifyBegin(r *jobRecord) {
	e := c.jobEvent(r, notify.Begin)
	e.Mail = r.Req.MailType&job.MailBegin != 0
	c.live.notifier.Send(e)
}

// notifyEnd tells the owner r ended: FAIL when it failed and FAIL was
// asked, else END. A preempted job's owner got the preemption notice.
func (c *Controller) notifyEnd(r *jobRecord) {
	delete(c.live.warned, r.ID)
	if r.St.State == job.Preempted || r.St.State == job.Pending {
		return
	}
	failed := r.St.State != job.Completed
	e := c.jobEvent(r, notify.End)
	mt := r.Req.MailType
	switch {
	case failed && mt&job.MailFail != 0:
		e.Kind, e.Mail = notify.Fail, true
	case mt&job.MailEnd != 0:
		e.Mail = true
	case failed:
		e.Kind = notify.Fail
	}
	c.live.notifier.Send(e)
}

// notifyRequeue tells the owner r was requeued, unless a preemption
// notice is on its way for it.
func (c *Controller) notifyRequeue(r *jobRecord, ran time.Duration) {
	delete(c.live.warned, r.ID)
	if _, ok := c.live.preempted[r.ID]; ok {
		return
	}
	e := c.jobEvent(r, notify.Requeue)
	e.RunSecs = int64(ran / time.Second)
	e.Mail = r.Req.MailType&job.MailRequeue != 0
	c.live.notifier.Send(e)
}

// timeWarnings are the time-limit mails, largest share first.
var timeWarnings = []struct {
	kind  notify.Kind
	bit   job.MailType
	share float64
}{
	{notify.TimeLimit, job.MailTimeLimit, 1.0},
	{notify.TimeLimit90, job.MailTimeLimit90, 0.9},
	{notify.TimeLimit80, job.MailTimeLimit80, 0.8},
	{notify.TimeLimit50, job.MailTimeLimit50, 0.5},
}

// checkTimeWarnings sends each running job's time-limit mails once, as
// its run time crosses 50, 80, 90 and 100% of its limit. Only jobs that
// asked for one are looked at.
func (c *Controller) checkTimeWarnings(now time.Time) {
	const anyLimit = job.MailTimeLimit | job.MailTimeLimit90 | job.MailTimeLimit80 | job.MailTimeLimit50
	for _, r := range c.runningSet {
		mt := r.Req.MailType
		if mt&anyLimit == 0 || r.St.TimeLimit <= 0 || r.St.Start == 0 || r.St.EndState != "" {
			continue
		}
		used := now.Sub(fromUnix(r.St.Start)).Seconds() / float64(r.St.TimeLimit)
		for _, w := range timeWarnings {
			if mt&w.bit == 0 || used < w.share {
				continue
			}
			if last, ok := c.live.warned[r.ID]; !ok || rank(last) > rank(w.kind) {
				c.live.warned[r.ID] = w.kind
				e := c.jobEvent(r, w.kind)
				e.Mail = true
				c.live.notifier.Send(e)
			}
			break
		}
	}
}

// rank orders the time-limit kinds: 0 for TIME_LIMIT ... 3 for 50%.
func rank(k notify.Kind) int {
	for i, w := range timeWarnings {
		if w.kind == k {
			return i
		}
	}
	return len(timeWarnings)
}
