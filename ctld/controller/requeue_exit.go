package controller

import (
	"github.com/loamhpc/loam/pkg/job"
)

// requeueOnExit puts a batch job whose script exited with a code listed in
// RequeueExit back in the queue, or with one in RequeueExitHold back in
// the queue held in SPECIAL_EXIT state, as slurmctld does: the job keeps
// its exit code (scontrol shows ExitCode=3:0), counts a restart and waits
// out the requeue delay (Reason=BeginTime), or pends held with
// Reason=JobHeldUser and priority 0. Like the peer, it requeues even a
// --no-requeue job. EpilogSlurmctld runs first and sees the run's exit
// code and restart count. It reports whether the job was requeued.
func (c *Controller) requeueOnExit(b *batch, r *jobRecord, st job.State, exit job.ExitCode) bool {
	if r.Req.Script == "" || exit.Signal != 0 || st != job.Failed && st != job.Completed {
		return false
	}
	requeue, hold := c.ctldScripts().RequeueOn(exit.Status)
	if !requeue {
		return false
	}
	r.St.ExitCode = exit
	c.epilogRun(r)
	r.epilogStarted = true
	h := NotHeld
	if hold {
		r.St.SpecialExit, h = specialExitDesc, HeldUser
	}
	r.ruleRequeue = true
	b.persist(c.requeueLocked(r, h, 0))
	r.ruleRequeue = false
	r.St.ExitCode = exit // a requeue from running forgets it; the peer shows it
	if hold {
		r.St.Desc = "" // scontrol shows Reason=JobHeldUser, no description
	}
	b.persist(c.persistStatus(r))
	c.log.WithField("job_id", r.ID).WithField("exit_code", exit.Status).WithField("held", hold).Info("job requeued on its exit code")
	return true
}
