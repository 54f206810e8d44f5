package agent

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// suspend forwards scontrol suspend or resume to the job's supervisor,
// which freezes or thaws the job's cgroup and stops or restarts its time
// limit's clock.
func (a *Agent) suspend(ctx context.Context, req *api.NodeSuspendRequest) (*api.NodedResponse, *api.Error) {
	e := a.entry(ctx, req.JobID)
	if e == nil {
		return &api.NodedResponse{Unknown: true}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, orderTimeout)
	defer cancel()
	resp, err := e.client.Suspend(ctx, *req)
	if err != nil {
		return nil, api.Errorf(api.CodeCommunication, "job %d: %v", req.JobID, err)
	}
	return &resp, nil
}
