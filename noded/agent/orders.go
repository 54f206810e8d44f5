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
	if e.failed != nil {
		return nil // its supervisor never ran: the entry goes
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.jobs[id] // gone if the supervisor failed to start
}

// forward hands one order for job jid to its supervisor with call; a job
// the daemon does not run here answers Unknown.
func (a *Agent) forward(ctx context.Context, jid uint32,
	call func(context.Context, *jobEntry) (api.NodedResponse, error)) (*api.NodedResponse, *api.Error) {
	e := a.entry(ctx, jid)
	if e == nil {
		return &api.NodedResponse{Unknown: true}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, orderTimeout)
	defer cancel()
	resp, err := call(ctx, e)
	if err != nil {
		return nil, api.Errorf(api.CodeCommunication, "job %d: %v", jid, err)
	}
	return &resp, nil
}

// signal forwards scancel --signal to the job's supervisor, or, for one
// step, to that step only (step_signal.go).
func (a *Agent) signal(ctx context.Context, req *api.SignalRequest) (*api.NodedResponse, *api.Error) {
	if req.Step != nil {
		e := a.entry(ctx, req.JobID)
		if e == nil {
			return &api.NodedResponse{Unknown: true}, nil
		}
		return a.signalStep(e, req)
	}
	return a.forward(ctx, req.JobID, func(ctx context.Context, e *jobEntry) (api.NodedResponse, error) {
		return e.client.Signal(ctx, *req)
	})
}

// terminate forwards a cancel, time limit, preemption or requeue order.
func (a *Agent) terminate(ctx context.Context, req *api.TerminateRequest) (*api.NodedResponse, *api.Error) {
	return a.forward(ctx, req.JobID, func(ctx context.Context, e *jobEntry) (api.NodedResponse, error) {
		return e.client.Terminate(ctx, *req)
	})
}

// timeLimit forwards scontrol update TimeLimit=.
func (a *Agent) timeLimit(ctx context.Context, req *api.TimeLimitRequest) (*api.NodedResponse, *api.Error) {
	return a.forward(ctx, req.JobID, func(ctx context.Context, e *jobEntry) (api.NodedResponse, error) {
		return e.client.TimeLimit(ctx, *req)
	})
}

// killJobs ends jobs the controller does not run here (from a
// registration or heartbeat answer).
func (a *Agent) killJobs(ctx context.Context, ids []uint32) {
	grace := int64(a.conf().KillWait / time.Second)
	for _, id := range ids {
		a.log.WithField("job_id", id).Info("controller does not run this job here; ending it")
		if _, err := a.terminate(ctx, &api.TerminateRequest{JobID: id, Reason: api.TerminateCancel, Grace: grace}); err != nil {
			a.log.WithError(err).WithField("job_id", id).Warn("end job")
		}
	}
}
