package controller

import (
	"slices"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// Jobs and admin reservations: scontrol update job ReservationName=, the
// hold a pending job gets when its reservation goes, and the reservation
// a job still uses (which Slurm will not delete).

// updateJobResv applies ReservationName= to q, the job's next request.
// Slurm takes it for pending and running jobs alike (a running job then
// ends with the reservation, advresv_end.go) and checks only that the
// reservation exists and lets the job's user and account in; "" leaves
// the reservation.
func (c *Controller) updateJobResv(r *jobRecord, q *job.Request, st *jobStatus, u *api.JobUpdate) *api.Error {
	if u.Reservation == nil {
		return nil
	}
	name := *u.Reservation
	if name != "" {
		resv, ok := c.adv.lookup(name)
		if !ok {
			return api.NewError(api.CodeReservationInvalid)
		}
		if !resv.allows(q.UserName, st.Account, c.advGroupsOf(&resv, q.GroupID, st.Groups)) {
			return api.NewError(api.CodeReservationAccess)
		}
	}
	q.Reservation = name
	return nil
}

// advInUse reports whether a job that has not ended names reservation
// name: Slurm refuses to delete it then ("Requested reservation is in
// use"). The caller holds c.mu.
func (c *Controller) advInUse(name string) bool {
	for _, r := range c.jobs {
		if !r.finished() && r.Req.Reservation == name {
			return true
		}
	}
	return false
}

// holdResvDeleted is what Slurm does to a pending job whose reservation
// went at its end: the job leaves it and is held (priority 0) as
// RESV_DEL_HOLD, reason "Reservation NAME was deleted", until an operator
// releases it. A job an operator already held keeps its hold and reason.
// The caller holds c.mu.
func (c *Controller) holdResvDeleted(b *batch, r *jobRecord, name string) {
	q := *r.Req // copy-on-write: array tasks share the request
	q.Reservation = ""
	r.Req, r.reqBlob = &q, nil
	if r.St.Hold != HeldAdmin {
		r.St.Hold = HeldAdmin
		r.St.Reason, r.St.Desc = job.ReasonReservationDeleted, "Reservation "+name+" was deleted"
		r.plan = PendingInfo{}
		if err := c.eng.Hold(r.ID, HeldAdmin); err != nil {
			c.log.WithError(err).WithField("job_id", r.ID).Warn("hold after reservation end: scheduler did not know the job")
		}
	}
	if err := c.eng.Update(c.engineJob(r)); err != nil {
		c.log.WithError(err).WithField("job_id", r.ID).Warn("reservation end: scheduler refused the update")
	}
	b.persist(c.persistJob(r))
}

// shownState is the state squeue and scontrol show, and squeue -t
// selects by: a job held by holdResvDeleted is RESV_DEL_HOLD, as in
// Slurm, while the controller keeps it pending.
func shownState(r *jobRecord) job.State {
	if r.St.State == job.Pending && r.St.Hold == HeldAdmin && r.St.Reason == job.ReasonReservationDeleted {
		return job.ResvDelHold
	}
	return r.St.State
}

// advJobs returns the jobs that name reservation name and are pending,
// or running and not yet being stopped, in id order. The caller holds
// c.mu.
func (c *Controller) advJobs(name string) (pending, running []*jobRecord) {
	for _, r := range c.jobs {
		if r.Req.Reservation != name {
			continue
		}
		switch {
		case r.pending():
			pending = append(pending, r)
		case r.running() && r.St.EndState == "":
			running = append(running, r)
		}
	}
	byID := func(a, b *jobRecord) int { return int(a.ID) - int(b.ID) }
	slices.SortFunc(pending, byID)
	slices.SortFunc(running, byID)
	return pending, running
}
