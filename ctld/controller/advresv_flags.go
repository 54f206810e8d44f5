package controller

import (
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/store"
)

// Two reservation flags that act at the end of a reservation, as Slurm
// 22.05's job_resv_check runs them:
//   - PURGE_COMP[=time]: a reservation that has started and has had no
//     pending or running job for its purge time (5 minutes by default)
//     ends early: deleted, or moved to its next window when it recurs;
//   - NO_HOLD_JOBS_AFTER_END: the jobs still pending in a reservation
//     that ends lose it and run as any other job, rather than being held
//     (holdResvDeleted).

// checkAdvPurges ends the PURGE_COMP reservations idle for their purge
// time at now. The caller holds c.mu.
func (c *Controller) checkAdvPurges(b *batch, now time.Time) {
	var purged, moved []string
	for _, r := range c.adv.sorted() {
		if !r.has(api.ResvFlagPurgeComp) || r.Start > now.Unix() || r.End <= now.Unix() {
			continue
		}
		if !c.advIdleFor(&r, now.Unix()) {
			continue
		}
		c.log.WithField("reservation", r.Name).Info("reservation has had no job for its purge time: ending it")
		if r.recurring() {
			moved = append(moved, r.Name)
		} else {
			purged = append(purged, r.Name)
		}
	}
	if len(purged) > 0 || len(moved) > 0 {
		c.endAdvResvs(b, purged, moved, now)
	}
}

// advIdleFor records when r was first seen without jobs and reports
// whether that was its purge time ago or more. The caller holds c.mu.
func (c *Controller) advIdleFor(r *advResv, now int64) bool {
	pending, running := c.advJobs(r.Name)
	c.adv.mu.Lock()
	defer c.adv.mu.Unlock()
	if c.adv.idleSince == nil {
		c.adv.idleSince = map[string]int64{}
	}
	if len(pending)+len(running) > 0 {
		delete(c.adv.idleSince, r.Name)
		return false
	}
	since, ok := c.adv.idleSince[r.Name]
	if !ok {
		c.adv.idleSince[r.Name] = now
		return false
	}
	if now-since < r.purgeTime() {
		return false
	}
	delete(c.adv.idleSince, r.Name)
	return true
}

// endAdvResvs deletes the reservations named in purged and moves those in
// moved to their next window, in memory and in the store. The caller
// holds c.mu.
func (c *Controller) endAdvResvs(b *batch, purged, moved []string, now time.Time) {
	var rows []store.AdvResvRow
	c.adv.mu.Lock()
	for _, name := range purged {
		delete(c.adv.byName, name)
		delete(c.adv.idleSince, name)
	}
	for _, name := range moved {
		delete(c.adv.idleSince, name)
		r := c.adv.byName[name]
		advanceWindow(r, now.Unix(), time.Local) // advresv_recur.go
		row, err := r.row()
		if err != nil {
			c.log.WithError(err).WithField("reservation", name).Error("save the next window")
			continue
		}
		rows = append(rows, row)
	}
	c.adv.mu.Unlock()
	b.persist(c.store.Enqueue(func(tx *store.Tx) error {
		for _, name := range purged {
			if err := tx.DeleteAdvResv(name); err != nil {
				return err
			}
		}
		for _, row := range rows {
			if err := tx.PutAdvResv(row); err != nil {
				return err
			}
		}
		return nil
	}))
	c.schedule()
}

// leaveEndedResv is what NO_HOLD_JOBS_AFTER_END does to a pending job
// whose reservation ended: the job leaves it and may run anywhere its
// request allows. The caller holds c.mu.
func (c *Controller) leaveEndedResv(b *batch, r *jobRecord) {
	q := *r.Req // copy-on-write: array tasks share the request
	q.Reservation = ""
	r.Req, r.reqBlob = &q, nil
	if err := c.eng.Update(c.engineJob(r)); err != nil {
		c.log.WithError(err).WithField("job_id", r.ID).Warn("reservation end: scheduler refused the update")
	}
	b.persist(c.persistJob(r))
}
