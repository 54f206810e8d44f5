package controller

import (
	"cmp"
	"encoding/json"
	"math"
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
		stepEnd := job.Cancelled
		if r.ruleRequeue { // the script ended itself (requeue_exit.go)
			a.ExitCode, stepEnd = r.St.ExitCode, job.Failed
		}
		for i := range a.Steps {
			if a.Steps[i].EndTime == 0 { // killed with the run
				a.Steps[i].EndTime, a.Steps[i].State = at, stepEnd
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
	case r.running() && r.St.EndState == "" && !r.ruleRequeue:
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

// orderRuns orders records as sacct lists them: by submit time, then
// array job id (0 for a job outside an array), array task id and job id
// (sacct's sort of what the accounting returns), a job's runs oldest
// first. Without dups it keeps only each job's latest run among them:
// sacct without -D shows one record per job id, the newest that matched.
// A requeued job's latest run was submitted at the requeue, so the job
// moves after the jobs submitted before it.
func orderRuns(jobs []api.AcctJob, dups bool) []api.AcctJob {
	if !dups {
		latest := map[uint32]int{}
		for _, j := range jobs {
			if r, ok := latest[j.JobID]; !ok || j.Restarts > r {
				latest[j.JobID] = j.Restarts
			}
		}
		jobs = slices.DeleteFunc(jobs, func(j api.AcctJob) bool { return j.Restarts != latest[j.JobID] })
	}
	slices.SortStableFunc(jobs, func(x, y api.AcctJob) int {
		return cmp.Or(cmp.Compare(x.SubmitTime, y.SubmitTime), cmp.Compare(x.ArrayJobID, y.ArrayJobID),
			cmp.Compare(acctTaskKey(&x), acctTaskKey(&y)), cmp.Compare(x.JobID, y.JobID),
			cmp.Compare(x.Restarts, y.Restarts))
	})
	return jobs
}

// acctTaskKey is a record's array task id for the order; a job outside
// an array (or a pending array's one record) has none and sorts last,
// as Slurm's NO_VAL does.
func acctTaskKey(j *api.AcctJob) int64 {
	if j.ArrayTaskID == nil {
		return math.MaxUint32 - 1
	}
	return int64(*j.ArrayTaskID)
}
