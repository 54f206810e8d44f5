package controller

import (
	"syscall"

	"github.com/loamhpc/loam/pkg/job"
)

// stoppedNow reports whether r shows STOPPED: it runs, is not being
// stopped for good, and SIGSTOP reached it last.
func stoppedNow(r *jobRecord) bool {
	return r.St.Stopped && r.St.State == job.Running && r.St.EndState == ""
}

// noteStopSignal records that sig reached job id's processes on a node:
// slurmctld sets JOB_STOPPED when SIGSTOP sent through scancel (to the
// job, its batch shell or a step) succeeds and clears it on SIGCONT
// (agent.c), so squeue shows ST until the job is continued. Other
// signals leave the state alone.
func (c *Controller) noteStopSignal(id uint32, sig int) {
	if sig != int(syscall.SIGSTOP) && sig != int(syscall.SIGCONT) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.jobs[id]
	stopped := sig == int(syscall.SIGSTOP)
	if r == nil || !r.running() || r.St.Stopped == stopped {
		return
	}
	r.St.Stopped = stopped
	c.persistStatus(r)
	c.jobChanged(r)
}
