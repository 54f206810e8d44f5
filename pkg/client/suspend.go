package client

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// Suspend suspends (req.Resume false) or resumes the listed jobs (scontrol
// suspend / resume).
func (c *Client) Suspend(ctx context.Context, req *api.SuspendRequest) (*api.JobResults, error) {
	var out api.JobResults
	return &out, c.call(ctx, methodPost, api.PathSuspend, req, &out)
}

// Suspend freezes (req.Resume false) or thaws a job's processes on the
// node daemon at addr.
func (n *Noded) Suspend(ctx context.Context, addr string, req *api.NodeSuspendRequest) (*api.NodedResponse, error) {
	var out api.NodedResponse
	return &out, n.call(ctx, addr, api.PathNodedSuspend, req, &out)
}
