package agent

import (
	"context"
	"time"

	"github.com/loamhpc/loam/noded/step"
	"github.com/loamhpc/loam/noded/supervisor"
	"github.com/loamhpc/loam/noded/unkillable"
	"github.com/loamhpc/loam/pkg/api"
)

// stepJobWait bounds how long a step launch waits for its job to start
// here: the controller sends a job's launches to its nodes in parallel,
// and srun in the batch script may be quicker than another node.
const stepJobWait = 5 * time.Second

// launchStep starts this node's share of a step (package step) of a job
// this daemon runs.
func (a *Agent) launchStep(ctx context.Context, req *api.StepLaunchRequest) (*api.StepLaunchResponse, *api.Error) {
	e, aerr := a.stepJob(ctx, req.JobID)
	if aerr != nil {
		return nil, aerr
	}
	conf := a.conf()
	set := &step.Settings{TaskProlog: conf.Scripts.TaskProlog, TaskEpilog: conf.Scripts.TaskEpilog, RLimits: conf.PropagateRLimits,
		Unkillable: &unkillable.Spec{Timeout: conf.Unkillable.Timeout, Program: conf.Unkillable.Program}}
	resp, aerr := step.Launch(step.Host{Node: a.nc.node.Name, Self: a.self, JobDir: e.dir, Settings: set}, req)
	if aerr != nil {
		a.log.WithField("job_id", req.JobID).WithField("step_id", req.StepID).WithField("reason", aerr.Error()).Warn("step launch failed")
	} else {
		a.watchStep(e, req.StepID, resp.Pid) // step_usage.go
	}
	return resp, aerr
}

// stepJob waits (up to stepJobWait) for job id to run here: its
// supervisor serves and has made the job's cgroup.
func (a *Agent) stepJob(ctx context.Context, id uint32) (*jobEntry, *api.Error) {
	deadline := time.Now().Add(stepJobWait)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		a.mu.Lock()
		e := a.jobs[id]
		a.mu.Unlock()
		if e != nil {
			<-e.ready
			st, err := e.client.Status(ctx)
			if err == nil && st.State == supervisor.Running {
				return e, nil // its cgroup exists: the step's goes below it
			}
			if err == nil && st.State == supervisor.Starting {
				// Its node prolog runs: the step waits for it, as slurmd's.
				deadline = time.Now().Add(stepJobWait)
			}
		}
		if time.Now().After(deadline) {
			return nil, api.Errorf(api.CodeJobNotRunning, "job %d does not run on %s", id, a.nc.node.Name)
		}
		select {
		case <-ctx.Done():
			return nil, api.Errorf(api.CodeJobNotRunning, "job %d does not run on %s", id, a.nc.node.Name)
		case <-time.After(wait):
		}
	}
}
