package controller

import (
	"math"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/job"
)

// An operator's fixed priority, Slurm's direct_set_prio: scontrol update
// Priority=N or --priority=N pins a job's priority at N; the scheduler
// then neither recomputes it nor reports factors for it (sprio shows them
// all 0), nice changes are ignored, and a requeue keeps it. What unpins it
// is what makes slurmctld recompute: an operator's scontrol release (held
// or not), a hold (whose release recomputes), or Priority=4294967295
// (INFINITE). scontrol top moves a pinned job's value and keeps it pinned.

// priorityInfinite is Slurm's INFINITE, which scontrol update Priority=
// passes through: "recompute the priority".
const priorityInfinite = math.MaxUint32

// submitPriority is the fixed priority a submission asks for with
// --priority: slurmctld drops a non-operator's (validate_job_create_req),
// and a held job (-H) has priority 0 whose release recomputes it.
func (c *Controller) submitPriority(id auth.Identity, a *admitted) int64 {
	if a.req.Priority == nil || *a.req.Priority <= 0 || a.hold != NotHeld || !c.isOperator(id) {
		return 0
	}
	return min(*a.req.Priority, priorityInfinite-1)
}

// shownPriority is the priority Slurm compares an update against: 0 for a
// job an operator or its user holds, else at least 1 (slurmctld gives a
// job its priority at submission; Loam's first cycle may not have run).
func shownPriority(st *jobStatus) int64 {
	if st.Hold == HeldUser || st.Hold == HeldAdmin {
		return 0
	}
	return max(st.Priority, 1)
}

// updatePriority is scontrol update Priority= and Nice=, in
// slurmctld's order (job_mgr.c _update_job): an unchanged value is no
// change; a held job takes no priority but a release; operators may set
// any value, pinning it (0 holds the job, INFINITE unpins it); others may
// only lower theirs, which slurmctld answers with "Changes to job priority
// are not persistent, change nice instead" (and 0, a user hold). A
// priority other than 0 resets nice; a pinned job ignores a new nice.
func (c *Controller) updatePriority(r *jobRecord, st *jobStatus, u *api.JobUpdate, operator bool) *api.Error {
	if u.Priority != nil {
		if err := c.setPriority(r, st, *u.Priority, operator); err != nil {
			return err
		}
	}
	if u.Nice != nil && *u.Nice != st.Nice {
		if st.Pinned != 0 && shownPriority(st) != 0 {
			return nil // slurmctld: "ignore nice set request"
		}
		if *u.Nice < 0 && !operator {
			return api.Errorf(api.CodeAccessDenied, "only operators may set a negative nice value")
		}
		if *u.Nice > job.MaxNice || *u.Nice < -job.MaxNice {
			return api.NewError(api.CodeInvalidNice)
		}
		st.Nice = *u.Nice
	}
	return nil
}

func (c *Controller) setPriority(r *jobRecord, st *jobStatus, p int64, operator bool) *api.Error {
	cur := shownPriority(st)
	switch {
	case p == cur:
		return nil
	case cur == 0:
		return api.NewError(api.CodeJobHeld) // a release is scontrol release
	case !operator && p == priorityInfinite:
		return nil // "already released, ignoring request"
	case !operator && p > cur:
		return api.NewError(api.CodeAccessDenied)
	}
	st.Nice = 0
	switch {
	case p == priorityInfinite:
		st.Pinned = 0
	case p == 0:
		if !r.pending() {
			return api.NewError(api.CodeJobNotPending)
		}
		st.Pinned, st.Hold = 0, HeldAdmin
		if !operator {
			st.Hold = HeldUser
		}
	case !operator:
		return api.NewError(api.CodePrioResetFail)
	default:
		st.Pinned, st.Priority = p, p
	}
	return nil
}

// unpin makes a pinned job's priority computed again (scontrol release,
// hold), telling the scheduler of a pending one.
func (c *Controller) unpin(r *jobRecord) {
	if r.St.Pinned == 0 {
		return
	}
	r.St.Pinned = 0
	if !r.pending() {
		return
	}
	if err := c.eng.Update(c.engineJob(r)); err != nil {
		c.log.WithError(err).WithField("job_id", r.ID).Warn("unpin: scheduler did not know the job")
	}
}
