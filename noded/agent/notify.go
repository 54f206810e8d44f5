package agent

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// notify forwards scontrol notify to the job's supervisor, which writes
// the message to the batch step's standard error. A job the daemon does
// not run here answers Unknown, as for the other orders.
func (a *Agent) notify(ctx context.Context, req *api.NotifyRequest) (*api.NodedResponse, *api.Error) {
	return a.forward(ctx, req.JobID, func(ctx context.Context, e *jobEntry) (api.NodedResponse, error) {
		return e.client.Notify(ctx, *req)
	})
}
