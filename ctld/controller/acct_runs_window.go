package controller

import (
	"math"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// runTimes is what the -s/-S/-E selection looks at in one run.
type runTimes struct {
	state                job.State
	eligible, start, end int64 // Unix seconds, 0: not yet
}

// stateWindow is sacct's -s with its time window [start, end] (0: open).
type stateWindow struct {
	states     map[job.State]bool // nil: any state
	start, end int64
}

func (w stateWindow) match(t runTimes) bool {
	if w.states == nil {
		return w.eligibleIn(t)
	}
	for st := range w.states {
		if w.inState(st, t) {
			return true
		}
	}
	return false
}

// eligibleIn is the window's rule without -s, as Slurm's accounting
// selects (as_mysql_jobacct_process.c): a run that became eligible
// before the window's end and ended after its start or has not ended. A
// job that never was eligible (held, then cancelled) or whose begin time
// is still ahead is left out; without a start (sacct -j) every run is in.
func (w stateWindow) eligibleIn(t runTimes) bool {
	if w.start == 0 {
		return true
	}
	end := w.end
	if end == 0 {
		end = math.MaxInt64
	}
	return t.eligible != 0 && t.eligible < end && (t.end == 0 || t.end >= w.start)
}

// inState reports whether a run was in state st during the window, as
// Slurm's accounting selects (as_mysql_jobacct_process.c): PENDING when it
// became eligible before the window's end and started (or ended unstarted)
// after its start or still pends; RUNNING when it started before the end
// and ended after the start or still runs; an end state when the run
// ended in that state inside the window. Without a window, and for the
// states that have no time rule (SUSPENDED among them), the run's state
// decides.
func (w stateWindow) inState(st job.State, t runTimes) bool {
	end := w.end
	if end == 0 {
		end = math.MaxInt64
	}
	if w.start == 0 && w.end == 0 {
		return t.state == st
	}
	switch {
	case st == job.Pending:
		return t.eligible != 0 && t.eligible < end &&
			((t.start != 0 && w.start < t.start) ||
				(t.start == 0 && t.end != 0 && w.start < t.end) ||
				(t.start == 0 && t.end == 0 && t.state == job.Pending))
	case st == job.Running:
		return t.start != 0 && t.start < end && (w.start < t.end || (t.end == 0 && t.state == job.Running))
	case st.IsTerminal() || st == job.Requeued || st == job.Resizing:
		return t.state == st && t.end != 0 && w.start <= t.end && t.end <= end
	}
	return t.state == st
}

// acctTimes is a record's runTimes.
func acctTimes(a *api.AcctJob) runTimes {
	return runTimes{state: a.State, eligible: a.EligibleTime, start: a.StartTime, end: a.EndTime}
}

// liveTimes is a live job's runTimes, read without building its record.
func liveTimes(r *jobRecord) runTimes {
	return runTimes{state: shownState(r), eligible: acctEligible(&r.St), start: r.St.Start, end: r.St.End}
}
