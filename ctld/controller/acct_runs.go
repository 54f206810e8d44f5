package controller

import (
	"cmp"
	"encoding/json"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/store"
)

// keepRun stores the accounting record of the run r ends by being
// requeued, as Slurm's accounting keeps one record per run (sacct -D
// lists them). It runs before requeueLocked resets r, under c.mu; a job
// that never started has no run to keep.
func (c *Controller) keepRun(r *jobRecord, now time.Time) {
	if r.St.Start == 0 {
		return
	}
	at := unix(now)
	a := c.acctJob(r, at)
	a.State = requeuedRunState(r)
	if !r.finished() {
		// slurmctld logs the run when it requeues the job, before the
		// batch script dies: the job's exit is 0:0, the batch step's is
		// how the script died (finishStopped).
		a.ExitCode, a.EndTime = job.ExitCode{}, at
		for i := range a.Steps {
			if a.Steps[i].EndTime == 0 { // killed with the run
				a.Steps[i].EndTime, a.Steps[i].State = at, job.Cancelled
			}
		}
	}
	run, row := r.St.Restarts, acctRowOf(&a)
	c.store.Enqueue(func(tx *store.Tx) error { return tx.PutAcctRun(run, row) })
}

// requeuedRunState is the state the ended run of a requeued job keeps in
// the accounting, as slurmctld records it: PREEMPTED when a preemption
// requeued it, NODE_FAIL when its node failed under a --requeue job,
// REQUEUED otherwise (scontrol requeue, of a running or an ended job).
func requeuedRunState(r *jobRecord) job.State {
	switch {
	case r.St.Preempt != 0:
		return job.Preempted
	case r.running() && r.St.EndState == "":
		return job.NodeFail // nodeFailJob is the only requeue not stopped first (end.go)
	}
	return job.Requeued
}

// acctRowOf is a record's row for the store.
func acctRowOf(a *api.AcctJob) store.AcctRow {
	data, _ := json.Marshal(a)
	return store.AcctRow{ID: a.JobID, ArrayJobID: a.ArrayJobID, UserID: a.UserID, UserName: a.UserName,
		Account: a.Account, Partition: a.Partition, Name: a.Name, State: string(a.State),
		SubmitTime: a.SubmitTime, EligibleTime: a.EligibleTime, StartTime: a.StartTime, EndTime: a.EndTime, Record: data}
}

// orderRuns sorts records by job id, each job's runs oldest first, and
// without dups keeps only each job's latest run among them: sacct without
// -D shows one record per job id, the newest that matched.
func orderRuns(jobs []api.AcctJob, dups bool) []api.AcctJob {
	slices.SortStableFunc(jobs, func(x, y api.AcctJob) int {
		return cmp.Or(cmp.Compare(x.JobID, y.JobID), cmp.Compare(x.Restarts, y.Restarts))
	})
	if dups {
		return jobs
	}
	out := jobs[:0]
	for i, j := range jobs {
		if i+1 < len(jobs) && jobs[i+1].JobID == j.JobID {
			continue // an earlier run of the next record's job
		}
		out = append(out, j)
	}
	return out
}
