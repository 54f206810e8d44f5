package controller

import (
	"time"

	"github.com/loamhpc/loam/pkg/job"
)

// wholeArrayOutcome reports whether d is an afterok or afternotok
// condition on every task of an array, which slurmctld judges only once
// all tasks have ended: afterok holds when all completed, afternotok when
// any did not (one failed task among completed ones is enough).
func wholeArrayOutcome(d *job.Dep, recs []*jobRecord) (depOutcome, time.Time, bool) {
	if d.Task != job.AllTasks || (d.Type != job.AfterOK && d.Type != job.AfterNotOK) {
		return depWaiting, time.Time{}, false
	}
	allOK, last := true, time.Time{}
	for _, t := range recs {
		if t.arrayRecord() || !t.St.State.IsTerminal() {
			return depWaiting, time.Time{}, true
		}
		allOK = allOK && t.St.State == job.Completed
		if at := fromUnix(t.St.End); at.After(last) {
			last = at
		}
	}
	if allOK == (d.Type == job.AfterOK) {
		return depMet, last, true
	}
	return depNever, last, true
}
