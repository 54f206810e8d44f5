package controller

import (
	"fmt"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/notify"
	"github.com/loamhpc/loam/pkg/store"
)

// Graceful preemption (R11), end to end:
//
//	cycle: Preempt --> applyPreempt: notePreempt (who, why, grace), persist,
//	                   checkpoint signal now, SIGKILL after the grace window
//	                   (the node daemon keeps the deadline)
//	node daemon reports the end --> preemptEnded: event log, statistics row,
//	                   checkpoint saved or missed
//	                --> requeue (same id, Restarts+1, LostRun compensated by
//	                   the scheduler) or PREEMPTED for a job that may not be
//	                   requeued
//	next cycle --> the owner's notice with the expected restart (R12)
//
// Everything a restarted controller needs is in the job's persisted
// status: a victim caught in its grace window by a controller restart is
// restored as running with its EndState, and the node daemon, which owns
// the kill deadline, reports its end as usual.

// notePreempt records on r who preempts it and why, before the stop is
// persisted, and returns the reason a victim that is not requeued ends
// with.
func (c *Controller) notePreempt(r *jobRecord, p *Preempt) job.Reason {
	r.St.PreemptBy, r.St.PreemptReason, r.St.PreemptGrace = p.Beneficiary, p.Reason, int64(p.Grace/time.Second)
	if p.Requeue {
		return job.ReasonNone
	}
	return job.Reason(fmt.Sprintf("Preempted by job %d (%s), not requeueable", p.Beneficiary, p.Reason))
}

// preemptEnded records the end of a preempted run: the job's event log,
// a statistics row (GPU-hours lost, requeued, checkpointed), and the
// owner's notice. It runs before the job is requeued or finished.
func (c *Controller) preemptEnded(b *batch, r *jobRecord, ev *api.JobEvent) {
	now := c.now()
	st := &r.St
	lost := max(now.Sub(fromUnix(st.Start)), 0)
	saved := ev.ExitedInGrace
	st.Preemptions++
	st.Checkpoint = "missed"
	if saved {
		st.Checkpoint = "saved"
	}
	requeued := st.EndState == job.Requeued
	row := store.PreemptionRow{Time: st.Preempt, JobID: r.ID, Account: st.Account, User: r.Req.UserName,
		Partition: st.Partition, Beneficiary: st.PreemptBy, Reason: st.PreemptReason, GPUs: allocGPUs(st.Alloc),
		LostSeconds: int64(lost / time.Second), Requeued: requeued, Checkpointed: saved}
	id, at := r.ID, unix(now)
	detail := fmt.Appendf(nil, `{"exited_in_grace":%t,"exit_code":%q,"lost_seconds":%d,"requeued":%t}`,
		saved, ev.ExitCode.String(), row.LostSeconds, requeued)
	b.persist(c.store.Enqueue(func(tx *store.Tx) error {
		if err := tx.AddJobEvent(id, at, "preempt_end", detail); err != nil {
			return err
		}
		return tx.AddPreemption(row)
	}))
	c.log.WithField("job_id", r.ID).WithField("checkpoint", st.Checkpoint).WithField("lost", lost.String()).
		WithField("requeue", requeued).Info("preempted job ended")
	e := c.jobEvent(r, notify.Preempt)
	e.RunSecs, e.Reason, e.Beneficiary, e.Checkpointed, e.Requeued = row.LostSeconds, st.PreemptReason, st.PreemptBy, saved, requeued
	e.GraceSecs, e.Signal = st.PreemptGrace, "SIG"+job.SignalName(c.checkpointSignal(r))
	e.Mail = r.Req.MailType&(job.MailPreempt|job.MailRequeue|job.MailEnd|job.MailFail) != 0
	if requeued {
		e.State, e.Restarts = string(job.Pending), st.Restarts+1
		c.live.preempted[r.ID] = &e // sent once a cycle has estimated the restart
		return
	}
	e.State = string(job.Preempted)
	c.live.notifier.Send(e)
}

// sendPreemptNotices sends the notices of requeued victims now that a
// cycle has planned them: the expected restart is the plan's estimate, or
// the start when the job already started again.
func (c *Controller) sendPreemptNotices() {
	for id, e := range c.live.preempted {
		delete(c.live.preempted, id)
		if r := c.jobs[id]; r != nil {
			switch {
			case r.pending():
				e.ExpectedRestart = unix(r.plan.EstStart)
			case r.running():
				e.ExpectedRestart = r.St.Start
			}
		}
		c.live.notifier.Send(*e)
	}
}

func allocGPUs(alloc []api.NodeAllocation) int {
	n := 0
	for _, a := range alloc {
		n += len(a.GPUs)
	}
	return n
}
