package agent

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// suspend forwards scontrol suspend or resume to the job's supervisor,
// which freezes or thaws the job's cgroup and stops or restarts its time
// limit's clock.
func (a *Agent) suspend(ctx context.Context, req *api.NodeSuspendRequest) (*api.NodedResponse, *api.Error) {
	return a.forward(ctx, req.JobID, func(ctx context.Context, e *jobEntry) (api.NodedResponse, error) {
		return e.client.Suspend(ctx, *req)
	})
}
