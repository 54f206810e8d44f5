package agent

import (
	"context"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// orderTimeout bounds one order to a supervisor.
const orderTimeout = 30 * time.Second

// entry returns job id's entry once its supervisor is ready, or nil.
func (a *Agent) entry(ctx context.Context, id uint32) *jobEntry {
	a.mu.Lock()
	e := a.jobs[id]
	a.mu.Unlock()
	if e == nil {
		return nil
	}
	select {
	case <-e.ready:
	case <-ctx.Done():
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.jobs[id] // gone if the supervisor failed to start
}

// signal forwards scancel --signal to the job's supervisor.
func (a *Agent) signal(ctx context.Context, req *api.SignalRequest) (*api.NodedResponse, *api.Error) {
	e := a.entry(ctx, req.JobID)
	if e == nil {
		return &api.NodedResponse{Unknown: true}, nil
	}
	if req.Step != nil {
		return a.signalStep(e, req) // step_signal.go: one step only
	}
	ctx, cancel := context.WithTimeout(ctx, orderTimeout)
	defer cancel()
	resp, err := e.client.Signal(ctx, *req)
	if err != nil {
		return nil, api.Errorf(api.CodeCommunication, "job %d: %v", req.JobID, err)
	}
	return &resp, nil
}

// terminate forwards a cancel, time limit, preemption or requeue order.
func (a *Agent) terminate(ctx context.Context, req *api.TerminateRequest) (*api.NodedResponse, *api.Error) {
	e := a.entry(ctx, req.JobID)
	if e == nil {
		return &api.NodedResponse{Unknown: true}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, orderTimeout)
	defer cancel()
	resp, err := e.client.Terminate(ctx, *req)
	if err != nil {
		return nil, api.Errorf(api.CodeCommunication, "job %d: %v", req.JobID, err)
	}
	return &resp, nil
}

// timeLimit forwards scontrol update TimeLimit=.
func (a *Agent) timeLimit(ctx context.Context, req *api.TimeLimitRequest) (*api.NodedResponse, *api.Error) {
	e := a.entry(ctx, req.JobID)
	if e == nil {
		return &api.NodedResponse{Unknown: true}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, orderTimeout)
	defer cancel()
	resp, err := e.client.TimeLimit(ctx, *req)
	if err != nil {
		return nil, api.Errorf(api.CodeCommunication, "job %d: %v", req.JobID, err)
	}
	return &resp, nil
}

// killJobs ends jobs the controller does not run here (from a
// registration or heartbeat answer).
func (a *Agent) killJobs(ctx context.Context, ids []uint32) {
	grace := int64(a.nc.cfg.KillWait / time.Second)
	for _, id := range ids {
		a.log.WithField("job_id", id).Info("controller does not run this job here; ending it")
		if _, err := a.terminate(ctx, &api.TerminateRequest{JobID: id, Reason: api.TerminateCancel, Grace: grace}); err != nil {
			a.log.WithError(err).WithField("job_id", id).Warn("end job")
		}
	}
}
