package controller

import "github.com/loamhpc/loam/pkg/job"

// deriveExit raises job id's DerivedExitCode to a step's exit when it is
// higher, as slurmctld keeps the highest step exit: compared as wait
// statuses, so "exit 7" (7:0) outranks a death by signal 9 (0:9). The job
// record is persisted with its next status change.
func (c *Controller) deriveExit(id uint32, exit job.ExitCode) {
	r := c.jobs[id]
	if r == nil {
		return
	}
	if waitStatus(exit) > waitStatus(r.St.Derived) {
		r.St.Derived = exit
	}
}

// waitStatus is the wait status an exit code stands for.
func waitStatus(e job.ExitCode) int { return e.Status<<8 | e.Signal }
