package agent

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// notify forwards scontrol notify to the job's supervisor, which writes
// the message to the batch step's standard error. A job the daemon does
// not run here answers Unknown, as for the other orders.
func (a *Agent) notify(ctx context.Context, req *api.NotifyRequest) (*api.NodedResponse, *api.Error) {
	e := a.entry(ctx, req.JobID)
	if e == nil {
		return &api.NodedResponse{Unknown: true}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, orderTimeout)
	defer cancel()
	resp, err := e.client.Notify(ctx, *req)
	if err != nil {
		return nil, api.Errorf(api.CodeCommunication, "job %d: %v", req.JobID, err)
	}
	return &resp, nil
}
