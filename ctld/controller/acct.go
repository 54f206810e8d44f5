package controller

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/store"
)

// acctJob builds r's accounting record.
func (c *Controller) acctJob(r *jobRecord, now int64) api.AcctJob {
	var j api.Job
	c.fillJob(&j, r, need{nodes: true, tres: true})
	a := api.AcctJob{
		JobID: r.ID, ArrayJobID: r.St.ArrayJobID, ArrayTaskID: r.taskID(), ArrayTaskString: j.ArrayTaskString,
		Name: j.Name, UserID: j.UserID, UserName: j.UserName, GroupID: j.GroupID, Account: j.Account,
		Partition: r.St.Partition, QOS: j.QOS, State: r.St.State, Reason: r.St.Reason, ExitCode: r.St.ExitCode,
		SubmitTime: r.St.Submit, EligibleTime: acctEligible(&r.St), StartTime: r.St.Start, EndTime: r.St.End,
		TimeLimit: r.St.TimeLimit, Nodes: j.Nodes, NodeCount: j.NodeCount, CPUs: j.CPUs, GPUs: j.GPUs,
		ReqTRES: j.TRESReqStr, AllocTRES: j.TRESAllocStr, WorkDir: j.WorkDir, Restarts: r.St.Restarts, Priority: r.St.Priority,
	}
	a.DerivedExitCode = r.St.Derived // step_derived.go
	a.Constraints = r.Req.Constraint
	a.MemPerCPU, a.MemPerNode = j.MemoryPerCPU, j.MemoryPerNode
	if t, err := resource.ParseTRES(a.ReqTRES); err == nil && j.GPUs > 0 {
		// The accounting keeps what the job asked for, its GPUs too when
		// tracked, though scontrol's view of a running job leaves them out.
		c.confNow().gpuTRES.add(&t, requestGPUType(r.Req), j.GPUs) // tres_gres.go
		a.ReqTRES = t.String()
	}
	if r.St.State == job.Cancelled {
		a.CancelledBy = r.St.CancelledBy
	}
	a.Suspended = suspendedAt(r, now) // suspend_acct.go
	if a.ArrayTaskString != "" && j.ArrayMaxTasks > 0 {
		// sacct shows a throttled pending array as "12_[0-3%2]".
		a.ArrayTaskString += "%" + strconv.Itoa(j.ArrayMaxTasks)
	}
	if a.StartTime != 0 {
		end := a.EndTime
		if end == 0 {
			end = now
		}
		a.Elapsed = activeSecs(a.StartTime, end, a.Suspended)
		if r.Req.Script != "" { // an interactive allocation has no batch step
			a.Steps = []api.AcctStep{{StepID: "batch", Name: "batch", State: batchStepState(r.St.State), ExitCode: a.ExitCode,
				StartTime: a.StartTime, EndTime: a.EndTime, Elapsed: a.Elapsed, Nodes: r.St.BatchHost, NodeCount: 1,
				CPUs: batchCPUs(r), AllocTRES: c.batchTRES(r), Tasks: 1, Usage: batchUsage(r), // usage.go
				NoExitCode: r.St.PrologFailed}} // the script never ran (nodeprolog.go)
		}
		a.Steps = append(a.Steps, c.acctSteps(r, now)...) // srun steps (step.go)
		c.fillStepTRES(r, a.Steps)                        // acct_step_tres.go
	}
	if r.pending() {
		// A requeued job's new record starts without an exit code though
		// scontrol keeps showing the last run's (RequeueExit: 3:0).
		a.ExitCode = job.ExitCode{}
	}
	if killedByController(r.St.State) {
		// slurmctld records the job's end when it cancels or times it
		// out, before the batch script dies of the signal: the job's
		// exit is 0:0, the batch step's the signal (as on the peer).
		a.ExitCode = job.ExitCode{}
	}
	return a
}

// killedByController reports whether a job in state st ended because
// slurmctld killed it (cancel, time limit, preemption, deadline).
func killedByController(st job.State) bool {
	switch st {
	case job.Cancelled, job.Timeout, job.Preempted, job.Deadline:
		return true
	}
	return false
}

// batchStepState is the batch step's state as sacct shows it: a cancelled
// or timed-out job's batch step was killed by a signal (CANCELLED).
func batchStepState(st job.State) job.State {
	switch st {
	case job.Timeout, job.Preempted, job.Deadline:
		return job.Cancelled
	}
	return st
}

// batchTRES is the batch step's TRES: what the job holds on its batch
// host, without billing ("cpu=1,gres/gpu=1,mem=1G,node=1" on the peer).
func (c *Controller) batchTRES(r *jobRecord) string {
	if len(r.St.Alloc) == 0 {
		return ""
	}
	a := batchAlloc(r)
	var t resource.TRES
	t.Set(resource.TRESCPU, int64(a.CPUs))
	t.Set(resource.TRESMem, a.Memory)
	t.Set(resource.TRESNode, 1)
	c.confNow().gpuTRES.add(&t, requestGPUType(r.Req), len(a.GPUs))
	return t.String()
}

func batchCPUs(r *jobRecord) int {
	if len(r.St.Alloc) == 0 {
		return 0
	}
	return batchAlloc(r).CPUs
}

// acctRow is r's accounting row for the store.
func (c *Controller) acctRow(r *jobRecord) store.AcctRow {
	a := c.acctJob(r, unix(c.now()))
	return acctRowOf(&a) // acct_runs.go
}

// lookupEnded finds how a job no longer in memory ended.
func (c *Controller) lookupEnded(id uint32) (endInfo, bool) {
	rows, err := c.store.QueryAcct(store.AcctFilter{JobIDs: []uint32{id}})
	if err != nil {
		c.log.WithError(err).Warn("accounting lookup failed")
		return endInfo{}, false
	}
	for _, r := range rows {
		if r.ID == id || r.ArrayJobID == id {
			return endInfo{state: job.State(r.State), start: r.StartTime, end: r.EndTime}, true
		}
	}
	return endInfo{}, false
}

// handleAccounting is sacct: finished jobs from the history, live ones from
// memory.
func (c *Controller) handleAccounting(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var q api.AcctQuery
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	f, aerr := c.compileFilter(filterSpec{JobIDs: q.JobIDs, Users: q.Users, Accounts: q.Accounts,
		Partitions: q.Partitions, States: q.States, Names: q.Names, Nodes: q.Nodes, Fold: true})
	if aerr != nil {
		return nil, aerr
	}
	c.ownUsersOnly(f, id) // privatedata.go
	sf := store.AcctFilter{Accounts: q.Accounts, Partitions: q.Partitions, Names: q.Names, Start: q.StartTime, End: q.EndTime}
	for _, ref := range f.refs {
		sf.JobIDs = append(sf.JobIDs, ref.JobID)
	}
	for uid := range f.users {
		sf.UserIDs = append(sf.UserIDs, uid)
	}
	// -s selects the runs that were in a state during the window, not by
	// the state they ended in (acct_runs_window.go); the store's window
	// is wider than every state's rule.
	win := stateWindow{states: f.states, start: q.StartTime, end: q.EndTime}
	f.states = nil
	if q.StartTime == 0 && q.EndTime == 0 { // no window: the state a run is in
		for st := range win.states {
			sf.States = append(sf.States, string(st))
		}
	}
	if f.noUser {
		return &api.AcctResponse{Jobs: []api.AcctJob{}}, nil
	}
	// The jobs in memory first, then the store once every change already
	// made is committed: a job that ends (or a run that is requeued) in
	// between is in the store by then, and counted once.
	out := &api.AcctResponse{Now: unix(c.now()), Jobs: []api.AcctJob{}}
	seen := c.liveAccounting(f, win, &q, out)
	if err := c.store.Barrier(); err != nil {
		return nil, api.Errorf(api.CodeInternal, "%v", err)
	}
	rows, err := c.store.QueryAcct(sf)
	if err != nil {
		return nil, api.Errorf(api.CodeInternal, "%v", err)
	}
	runs, err := c.store.QueryAcctRuns(sf) // earlier runs of requeued jobs (acct_runs.go)
	if err != nil {
		return nil, api.Errorf(api.CodeInternal, "%v", err)
	}
	for i, row := range append(rows, runs...) {
		if seen[row.ID] && i < len(rows) {
			continue
		}
		var a api.AcctJob
		if err := json.Unmarshal(row.Record, &a); err != nil {
			continue
		}
		if acctMatches(f, &a) && win.match(acctTimes(&a)) {
			out.Jobs = append(out.Jobs, a)
		}
	}
	// Slurm's accounting lists jobs by job id (a requeued job, whose
	// submit time moves, keeps its place; an array's tasks come in the
	// order their ids were given), a job's runs oldest first, and only
	// the latest run that matched unless -D asks for every one.
	out.Jobs = orderRuns(out.Jobs, q.Duplicates)
	if q.Limit > 0 && len(out.Jobs) > q.Limit {
		out.Jobs = out.Jobs[:q.Limit]
	}
	for i := range out.Jobs {
		if q.AllocationsOnly {
			out.Jobs[i].Steps = nil
		}
	}
	return out, nil
}

// liveAccounting adds the jobs still in memory that have not finished.
func (c *Controller) liveAccounting(f *jobFilter, win stateWindow, q *api.AcctQuery, out *api.AcctResponse) map[uint32]bool {
	seen := map[uint32]bool{}
	c.mu.RLock()
	defer c.mu.RUnlock()
	now := unix(c.now())
	c.selectJobs(f, func(r *jobRecord) {
		if r.finished() || (q.EndTime > 0 && r.St.Submit > q.EndTime) || !win.match(liveTimes(r)) {
			return
		}
		out.Jobs = append(out.Jobs, c.acctJob(r, now))
		seen[r.ID] = true
	})
	return seen
}

// acctMatches applies the filters the store cannot: task references and
// nodes.
func acctMatches(f *jobFilter, a *api.AcctJob) bool {
	if len(f.refs) > 0 {
		ok := false
		for _, ref := range f.refs {
			switch {
			case len(ref.Tasks) == 0:
				ok = ok || ref.JobID == a.JobID || ref.JobID == a.ArrayJobID
			case a.ArrayTaskID != nil && ref.JobID == a.ArrayJobID:
				ok = ok || slices.Contains(ref.Tasks, *a.ArrayTaskID)
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
