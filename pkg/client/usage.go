package client

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// StepStat asks for the live usage of a job's running steps (sstat).
func (c *Client) StepStat(ctx context.Context, req *api.StepStatRequest) (*api.StepStatResponse, error) {
	var out api.StepStatResponse
	return &out, c.call(ctx, methodPost, api.PathStepStat, req, &out)
}

// StepUsage asks the node daemon at addr for the live usage of a step of
// a job it runs.
func (n *Noded) StepUsage(ctx context.Context, addr string, req *api.NodedUsageRequest) (*api.NodeUsage, error) {
	var out api.NodeUsage
	return &out, n.call(ctx, addr, api.PathNodedStepUsage, req, &out)
}
