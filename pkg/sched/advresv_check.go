package sched

import (
	"slices"
	"time"
)

// checkAdminWindows verifies that no start breaks an admin reservation: a
// job in a reservation starts only on its nodes and inside its window; any
// other job never on a node whose window has started and not ended, nor,
// when its time limit is known (PendingJob.Limit, else the partition's
// DefaultTime), on one whose window starts before the job would end.
func (ck *checker) checkAdminWindows() {
	if len(ck.snap.AdminReservations) == 0 {
		return
	}
	now := ck.snap.Now
	for _, st := range ck.plan.Starts {
		pj := ck.pending[st.Job]
		if pj == nil {
			continue // checkStarts reports it
		}
		end := ck.endOf(pj, st.Partition)
		for _, a := range st.Alloc {
			for i := range ck.snap.AdminReservations {
				ck.checkWindow(&ck.snap.AdminReservations[i], pj, a.Node, now, end)
			}
		}
	}
}

func (ck *checker) checkWindow(w *AdminReservation, pj *PendingJob, node string, now, end time.Time) {
	if !w.End.After(now) {
		return // over
	}
	in := slices.Contains(expandNames(w.Nodes), node)
	switch {
	case pj.Reservation == w.Name && !in:
		ck.fail("job %d of reservation %s started on %s, outside it", pj.ID, w.Name, node)
	case pj.Reservation == w.Name && w.Start.After(now):
		ck.fail("job %d started before its reservation %s", pj.ID, w.Name)
	case pj.Reservation != w.Name && in && !w.Start.After(now):
		ck.fail("job %d started on %s inside reservation %s", pj.ID, node, w.Name)
	case pj.Reservation != w.Name && in && !end.IsZero() && w.Start.Before(end):
		ck.fail("job %d on %s would run into reservation %s", pj.ID, node, w.Name)
	}
}

// endOf is when a job started now would end by its limit; zero when the
// limit is unknown or unlimited.
func (ck *checker) endOf(pj *PendingJob, part string) time.Time {
	lim := pj.Limit
	if p := ck.parts[part]; lim <= 0 && p != nil {
		lim = p.DefaultTime
	}
	if lim <= 0 {
		return time.Time{}
	}
	return ck.snap.Now.Add(lim)
}
