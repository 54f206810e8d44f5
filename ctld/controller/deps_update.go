package controller

import "github.com/loamhpc/loam/pkg/job"

// selfDependency reports whether d makes r wait on itself: its own job id,
// or a task set of its array that holds r's task. slurmctld refuses that
// as "Job dependency problem", not as a cycle; a dependency on another
// task of the same array is allowed.
func (c *Controller) selfDependency(d *job.Dependency, r *jobRecord) bool {
	for _, dep := range d.Deps {
		if dep.Type == job.Singleton {
			continue
		}
		if dep.JobID == r.ID && r.St.ArrayJobID == 0 {
			return true
		}
		for _, t := range c.targets(dep.JobID, dep.Task) {
			if t == r {
				return true
			}
		}
	}
	return false
}

// killsInvalid reports whether r is cancelled when its dependency can
// never be met: --kill-on-invalid-dep=yes, or DependencyParameters'
// kill_invalid_depend unless the job asked --kill-on-invalid-dep=no.
func (c *Controller) killsInvalid(r *jobRecord) bool {
	return r.St.KillInvDep || (c.confNow().conf.KillInvalidDepend && !r.St.NoKillInvDep)
}

// resetDependency applies a dependency scontrol update has just replaced:
// a job no longer waiting on anything is released from its dependency
// hold, one with a new dependency is tested at once. A job under an
// explicit hold is tested when it is released.
func (c *Controller) resetDependency(r *jobRecord) {
	switch {
	case explicitHold(r):
	case r.St.Dep == nil || len(r.St.Dep.Deps) == 0:
		c.setDepHold(r, NotHeld)
	default:
		c.evalDependency(r)
	}
}
