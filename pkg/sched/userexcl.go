package sched

// User-exclusive jobs (Shape.ExclusiveUser: --exclusive=user, or a
// partition with ExclusiveUser=YES) share their nodes with jobs of the
// same user only, as Slurm 22.05 does: such a job takes no node where
// another user's job runs, and no other user's job goes where it runs.
// Without any user-exclusive job, running or pending, nothing here runs,
// so plans are unchanged.

// userExcl is the cycle's user-exclusive running jobs.
type userExcl struct {
	runs map[JobID]bool
}

// initUserExcl turns the check on when a running or pending job is
// user-exclusive.
func (c *cycle) initUserExcl() {
	var ue *userExcl
	on := func() *userExcl {
		if ue == nil {
			ue = &userExcl{runs: map[JobID]bool{}}
		}
		return ue
	}
	for i := range c.snap.Running {
		if c.snap.Running[i].ExclusiveUser {
			on().runs[c.snap.Running[i].ID] = true
		}
	}
	for i := range c.snap.Pending {
		if c.snap.Pending[i].Shape.ExclusiveUser {
			on()
		}
	}
	c.userExcl = ue
}

// userExclDemand gives d (and its wide form) the job's user while the
// check is on; the user joins the key of the failure caches, as where a
// job may go now depends on it.
func (c *cycle) userExclDemand(d *demand, pj *PendingJob) {
	if c.userExcl == nil {
		return
	}
	for _, x := range []*demand{d, d.wide} {
		if x == nil {
			continue
		}
		x.user, x.exclUser = pj.User, pj.Shape.ExclusiveUser
		x.key += "|u:" + pj.User
		if x.exclUser {
			x.key += "|xu"
		}
	}
}

// userExclStarted records a job started in this cycle.
func (c *cycle) userExclStarted(j *jobInfo) {
	if c.userExcl != nil && j.p.Shape.ExclusiveUser {
		c.userExcl.runs[j.id] = true
	}
}

// userExclAllows reports whether node ni may take d's job: no job of
// another user runs there when either that job or d's is user-exclusive.
func (c *cycle) userExclAllows(ni int32, d *demand) bool {
	if c.userExcl == nil {
		return true
	}
	for _, nr := range c.nodes[ni].runs {
		r := &c.runs[nr.r]
		if r.user != d.user && (d.exclUser || c.userExcl.runs[r.id]) {
			return false
		}
	}
	return true
}
