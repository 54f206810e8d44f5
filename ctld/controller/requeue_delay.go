package controller

import (
	"strconv"
	"strings"
	"time"
)

// defaultCredExpire is Slurm's launch credential lifetime when AuthInfo
// names no cred_expire (src/common/slurm_cred.c, 120 s), and
// minCredExpire the smallest value it accepts (below it Slurm logs an
// error and keeps the default).
const (
	defaultCredExpire = 120 * time.Second
	minCredExpire     = 5 * time.Second
)

// requeueDelay is how long a requeued batch job waits before it may run
// again. Slurm 22.05 (batch_requeue_fini) sets the job's begin time to
// now + the launch credential lifetime + 1 s, so that the new launch
// credential is newer than the revoked one: AuthInfo=cred_expire=N, 120
// by default, hence the peer's BeginTime of now+121 s. Loam has no launch
// credentials but keeps the rule, read from the same slurm.conf key, so
// scripts that expect the pause (and its Reason=BeginTime) see it.
func (c *Controller) requeueDelay() time.Duration {
	return credExpire(c.confNow().conf.Written["authinfo"]) + time.Second
}

// credExpire reads cred_expire=N (seconds) from an AuthInfo value, a
// comma-separated option list, as Slurm does: a missing, unreadable or
// too small value gives the default.
func credExpire(authInfo string) time.Duration {
	for opt := range strings.SplitSeq(authInfo, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(opt), "=")
		if !ok || !strings.EqualFold(key, "cred_expire") {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(val))
		if err != nil || time.Duration(n)*time.Second < minCredExpire {
			return defaultCredExpire
		}
		return time.Duration(n) * time.Second
	}
	return defaultCredExpire
}

// delayRequeued gives a job an explicit or node-failure requeue put back
// the begin time Slurm gives it: now + requeueDelay, unless its --begin is
// still in the future (Slurm keeps that one). The job then shows
// Reason=BeginTime, and EligibleTime, AccrueTime and StartTime at that
// time, held or not, as on the peer; a release does not lift it. A job
// that was running is already back in the scheduler's queue: it learns the
// begin time here. A preemption victim is not delayed: Loam compensates
// victims and restarts them as soon as they fit (R11), where Slurm delays
// them too.
func (c *Controller) delayRequeued(r *jobRecord, now time.Time, preempted, wasRunning bool) {
	st := &r.St
	if preempted || st.Begin > unix(now) {
		return
	}
	st.Begin = unix(now.Add(c.requeueDelay()))
	st.Eligible, st.Accrue = 0, st.Begin
	if !wasRunning {
		return // submitted to the scheduler afterwards, begin time included
	}
	if err := c.eng.Update(c.engineJob(r)); err != nil {
		c.log.WithError(err).WithField("job_id", r.ID).Warn("requeue: scheduler did not take the begin time")
	}
}
