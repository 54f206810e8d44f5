package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/store"
)

// stepRecord is one srun step of a job's current run. It is persisted
// (store steps table) when srun creates it and when it ends; the job's
// accounting record carries the steps once the job ends.
//
//	create --> RUNNING --srun reports the end--> COMPLETED | FAILED | CANCELLED
//	              |
//	              +--the job ends or is requeued--> CANCELLED
type stepRecord struct {
	JobID    uint32         `json:"job_id"`
	StepID   uint32         `json:"step_id"`
	Name     string         `json:"name"`
	State    job.State      `json:"state"`
	ExitCode job.ExitCode   `json:"exit_code"`
	Start    int64          `json:"start"`
	End      int64          `json:"end,omitempty"`
	Layout   api.StepLayout `json:"layout"`
	// CPUs is the step's CPU count: the job's CPUs on the step's nodes,
	// which the step's tasks may all use.
	CPUs int `json:"cpus"`
	// Run is the job's restart count when the step started.
	Run int `json:"run"`
	// Show is what scontrol show step prints beyond the above.
	Show stepShow `json:"show"`
	// SuspendedBase is the job's time suspended (seconds) when the step
	// started; Suspended, the step's own once it ended (suspend_acct.go).
	SuspendedBase int64 `json:"suspended_base,omitempty"`
	Suspended     int64 `json:"suspended,omitempty"`
	// Usage is what the step's tasks used, from its nodes (usage.go).
	Usage *api.StepUsage `json:"usage,omitempty"`
	// Holds is what the step holds of the job's nodes while it runs
	// (step_share.go).
	Holds []stepHold `json:"holds,omitempty"`
}

// jobSteps are a job's steps in id order and the id the next one gets.
type jobSteps struct {
	next uint32
	list []*stepRecord
}

// stepsOf returns r's steps, creating the entry. The caller holds c.mu.
func (c *Controller) stepsOf(id uint32) *jobSteps {
	js := c.steps[id]
	if js == nil {
		js = &jobSteps{}
		c.steps[id] = js
	}
	return js
}

func (s *stepRecord) running() bool { return s.State == job.Running }

func (s *stepRecord) nodeCount() int { return len(s.Layout.Nodes) }

// persistStep enqueues s's record.
func (c *Controller) persistStep(s *stepRecord) *store.Pending {
	data, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("encode step %s: %v", stepName(s.JobID, s.StepID), err)) // plain data
	}
	row := store.StepRow{JobID: s.JobID, StepID: s.StepID, Record: data}
	return c.store.Enqueue(func(tx *store.Tx) error { return tx.PutStep(row) })
}

// handleStepCreate is srun inside an allocation: check the job and the
// caller, lay the step out, record it (persist BEFORE launch), then start
// it on every node and answer once all of them have.
func (c *Controller) handleStepCreate(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.StepCreateRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if aerr := checkStepRequest(&in); aerr != nil {
		return nil, aerr
	}
	s, targets, kill, pend, aerr := c.createStep(id, &in)
	if aerr != nil {
		return nil, aerr
	}
	if err := pend.Wait(); err != nil {
		c.fail(fmt.Errorf("persist step %s: %w", stepName(s.JobID, s.StepID), err))
		return nil, api.Errorf(api.CodeWritingToFile, "step %s was not saved: %v", stepName(s.JobID, s.StepID), err)
	}
	if aerr := c.launchStep(s, &in, targets, kill); aerr != nil {
		c.failStep(s)
		if perr := c.stepPrologError(s.JobID, s.StepID); perr != nil {
			return nil, perr // the job's prolog failed meanwhile (nodeprolog.go)
		}
		return nil, aerr
	}
	c.log.WithField("job_id", s.JobID).WithField("step_id", s.StepID).WithField("nodes", s.Layout.NodeList).
		WithField("tasks", s.Layout.Tasks).Debug("step started")
	return &api.StepCreateResponse{StepID: s.StepID, Layout: s.Layout, KillWait: kill,
		KillOnBadExit: c.confNow().conf.KillOnBadExit}, nil
}

// checkStepRequest refuses requests that cannot be a step.
func checkStepRequest(in *api.StepCreateRequest) *api.Error {
	switch {
	case in.JobID == 0:
		return api.NewError(api.CodeInvalidJobID)
	case len(in.Argv) == 0 || in.Argv[0] == "":
		return api.Errorf(api.CodeBadRequest, "step without a command")
	case in.IO.Addr == "" || len(in.IO.Key) < 16:
		return api.Errorf(api.CodeBadRequest, "step without an I/O address and key")
	case in.NTasks < 0 || in.Nodes < 0 || in.CPUsPerTask < 0 || in.NTasksPerNode < 0:
		return api.NewError(api.CodeBadTaskCount)
	case in.GPUs < 0 || in.GPUsPerNode < 0 || in.GPUsPerTask < 0 || in.CPUsPerGPU < 0:
		return api.NewError(api.CodeInvalidGRES)
	case len(in.MultiProg) > api.MultiProgMaxSize:
		return api.Errorf(api.CodeBadRequest, "--multi-prog configuration of %d bytes, more than %d", len(in.MultiProg), api.MultiProgMaxSize)
	}
	return nil
}

// createStep records a new step of a running job, under the lock.
func (c *Controller) createStep(id auth.Identity, in *api.StepCreateRequest) (*stepRecord, []nodeTarget, int64, *store.Pending, *api.Error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.jobs[in.JobID]
	switch {
	case r == nil:
		return nil, nil, 0, nil, api.NewError(api.CodeInvalidJobID)
	case !c.canModify(id, r):
		return nil, nil, 0, nil, api.NewError(api.CodeAccessDenied)
	case r.pending():
		return nil, nil, 0, nil, api.NewError(api.CodeJobPending)
	case r.nodePrologFailed != "":
		return nil, nil, 0, nil, prologLaunchError(r, c.stepsOf(r.ID).next) // nodeprolog.go
	case !r.running() || r.St.EndState != "" || r.St.State == job.Completing:
		return nil, nil, 0, nil, api.NewError(api.CodeAlreadyDone)
	case r.St.State == job.Suspended:
		return nil, nil, 0, nil, stepWhileSuspended() // srun waits and asks again
	}
	if aerr := stepCountLimit(c.confNow().conf, c.stepsOf(r.ID).next); aerr != nil {
		return nil, nil, 0, nil, aerr // steplimits.go
	}
	layout, holds, aerr := planStep(r.St.Alloc, in, c.stepsHeld(r.ID))
	if aerr != nil {
		return nil, nil, 0, nil, explainStepGRES(aerr, r.Req, in) // step_gres.go
	}
	if aerr := stepTasksLimit(c.confNow().conf, &layout); aerr != nil {
		return nil, nil, 0, nil, aerr
	}
	targets, aerr := c.stepTargets(&layout)
	if aerr != nil {
		return nil, nil, 0, nil, aerr
	}
	nodeBinds, partBind := c.jobCPUBinds(r)
	in.CPUBind = stepCPUBind(in.CPUBind, nodeBinds, partBind) // step_cpubind.go
	js := c.stepsOf(r.ID)
	show, cpus := newStepShow(r, in, &layout)
	if use, mem := stepUse(holds); use > 0 {
		cpus, show.Memory = use, mem // step_share.go
	}
	now := unix(c.now())
	s := &stepRecord{JobID: r.ID, StepID: js.next, Name: in.Name, State: job.Running, Start: now,
		Layout: layout, CPUs: cpus, Run: r.St.Restarts, Show: show, SuspendedBase: suspendedAt(r, now), Holds: holds}
	if s.Name == "" {
		s.Name = path.Base(in.Argv[0]) // srun names steps so
	}
	js.next++
	js.list = append(js.list, s)
	return s, targets, int64(c.killWait() / time.Second), c.persistStep(s), nil
}

// stepTargets finds the daemon of each node of a layout.
func (c *Controller) stepTargets(l *api.StepLayout) ([]nodeTarget, *api.Error) {
	out := make([]nodeTarget, len(l.Nodes))
	for i, sn := range l.Nodes {
		n := c.nodes[sn.Node]
		if n == nil || n.addr == "" || !n.registered || n.notResponding {
			return nil, api.Errorf(api.CodeNodeNotAvail, "node %s does not answer", sn.Node)
		}
		out[i] = nodeTarget{node: n.name, addr: n.addr}
	}
	return out, nil
}

// launchStep sends the step to its nodes in parallel and waits for all of
// them. The first failure is the answer; nodes that did start their share
// end it when srun, told of the failure, goes away.
func (c *Controller) launchStep(s *stepRecord, in *api.StepCreateRequest, targets []nodeTarget, kill int64) *api.Error {
	errs := make([]error, len(targets))
	var wg sync.WaitGroup
	for i, t := range targets {
		req := &api.StepLaunchRequest{JobID: s.JobID, StepID: s.StepID, Step: *in, Layout: s.Layout, NodeIndex: i, KillWait: kill}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, errs[i] = c.noded.LaunchStep(ctx, t.addr, req)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			c.log.WithError(err).WithField("job_id", s.JobID).WithField("step_id", s.StepID).
				WithField("node", targets[i].node).Warn("step launch failed")
			return api.Errorf(api.CodeLaunchFailed, "Task launch for StepId=%s failed on node %s: %v",
				stepName(s.JobID, s.StepID), targets[i].node, err)
		}
	}
	return nil
}

// failStep ends a step whose launch failed.
func (c *Controller) failStep(s *stepRecord) {
	c.mu.Lock()
	p := c.endStepLocked(s, job.Failed, job.ExitCode{Status: 1})
	c.mu.Unlock()
	if p != nil {
		_ = p.Wait()
	}
}

// endStepLocked ends a running step; the caller holds c.mu.
func (c *Controller) endStepLocked(s *stepRecord, st job.State, exit job.ExitCode) *store.Pending {
	if !s.running() {
		return nil
	}
	end := unix(c.now())
	s.Suspended = stepSuspended(c.jobs[s.JobID], s, end)
	s.State, s.ExitCode, s.End = st, exit, end
	c.deriveExit(s.JobID, exit) // step_derived.go
	return c.persistStep(s)
}

// handleStepComplete records how srun saw its step end.
func (c *Controller) handleStepComplete(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.StepCompleteRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	switch in.State {
	case job.Completed, job.Failed, job.Cancelled, job.OutOfMemory, job.NodeFail:
	default:
		return nil, api.Errorf(api.CodeBadRequest, "step end state %q", in.State)
	}
	c.mu.Lock()
	r := c.jobs[in.JobID]
	if r == nil || !c.canModify(id, r) {
		c.mu.Unlock()
		return nil, api.NewError(api.CodeInvalidJobID)
	}
	s := c.findStep(in.JobID, in.StepID)
	if s == nil {
		c.mu.Unlock()
		return nil, api.Errorf(api.CodeInvalidJobID, "no step %s", stepName(in.JobID, in.StepID))
	}
	p := c.endStepLocked(s, in.State, in.ExitCode)
	c.mu.Unlock()
	if p != nil {
		if err := p.Wait(); err != nil {
			return nil, api.Errorf(api.CodeWritingToFile, "%v", err)
		}
	}
	return struct{}{}, nil
}

// findStep returns step stepID of job jobID's current run.
func (c *Controller) findStep(jobID, stepID uint32) *stepRecord {
	js := c.steps[jobID]
	if js == nil {
		return nil
	}
	for _, s := range js.list {
		if s.StepID == stepID {
			return s
		}
	}
	return nil
}

// endSteps ends the running steps of a job that ends or is requeued: the
// node daemons kill their tasks with the job. The caller holds c.mu.
func (c *Controller) endSteps(r *jobRecord) {
	js := c.steps[r.ID]
	if js == nil {
		return
	}
	for _, s := range js.list {
		c.endStepLocked(s, job.Cancelled, job.ExitCode{Signal: 9})
	}
}

// forgetSteps drops a job's steps: it was requeued (its next run numbers
// steps from 0 again) or left the live table. The caller holds c.mu.
func (c *Controller) forgetSteps(id uint32) {
	if c.steps[id] == nil {
		return
	}
	delete(c.steps, id)
	c.store.Enqueue(func(tx *store.Tx) error { return tx.DeleteSteps(id) })
}

// restoreSteps loads the stored steps of the live jobs' current runs.
// The caller holds c.mu.
func (c *Controller) restoreSteps() error {
	return c.store.LoadSteps(func(row store.StepRow) error {
		var s stepRecord
		if err := json.Unmarshal(row.Record, &s); err != nil {
			return fmt.Errorf("step %d.%d: %w", row.JobID, row.StepID, err)
		}
		r := c.jobs[row.JobID]
		if r == nil || s.Run != r.St.Restarts {
			return nil
		}
		js := c.stepsOf(r.ID)
		js.list = append(js.list, &s)
		js.next = max(js.next, s.StepID+1)
		return nil
	})
}

// acctSteps are r's steps for sacct, in id order.
func (c *Controller) acctSteps(r *jobRecord, now int64) []api.AcctStep {
	js := c.steps[r.ID]
	if js == nil {
		return nil
	}
	out := make([]api.AcctStep, 0, len(js.list))
	for _, s := range js.list {
		end := s.End
		if end == 0 {
			end = now
		}
		out = append(out, api.AcctStep{StepID: strconv.FormatUint(uint64(s.StepID), 10), Name: s.Name, State: s.State,
			ExitCode: s.ExitCode, StartTime: s.Start, EndTime: s.End, Elapsed: activeSecs(s.Start, end, stepSuspended(r, s, now)),
			Nodes: s.Layout.NodeList, NodeCount: s.nodeCount(), CPUs: s.CPUs,
			AllocTRES: fmt.Sprintf("cpu=%d,node=%d", s.CPUs, s.nodeCount()), Tasks: s.Layout.Tasks, Usage: s.Usage})
	}
	return out
}
