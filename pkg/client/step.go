package client

import (
	"context"
	"os"

	"github.com/loamhpc/loam/pkg/api"
)

// CreateStep creates a step of a running job and returns once every node
// of the step started it (srun).
func (c *Client) CreateStep(ctx context.Context, req *api.StepCreateRequest) (*api.StepCreateResponse, error) {
	var out api.StepCreateResponse
	return &out, c.call(ctx, methodPost, api.PathStepCreate, req, &out)
}

// CompleteStep reports how a step ended.
func (c *Client) CompleteStep(ctx context.Context, req *api.StepCompleteRequest) error {
	return c.call(ctx, methodPost, api.PathStepComplete, req, nil)
}

// Steps lists the running steps (squeue -s).
func (c *Client) Steps(ctx context.Context, q *api.StepQuery) (*api.StepsResponse, error) {
	var out api.StepsResponse
	return &out, c.call(ctx, methodPost, api.PathSteps, q, &out)
}

// Allocate submits an interactive allocation (salloc, srun outside a job).
// An empty SubmitHost is filled with this host's name.
func (c *Client) Allocate(ctx context.Context, req *api.AllocateRequest) (*api.SubmitResponse, error) {
	if req.SubmitHost == "" {
		req.SubmitHost, _ = os.Hostname()
	}
	var out api.SubmitResponse
	return &out, c.call(ctx, methodPost, api.PathAllocate, req, &out)
}

// WaitAllocation waits for an interactive allocation to run (or end), at
// most req.Timeout seconds.
func (c *Client) WaitAllocation(ctx context.Context, req *api.AllocationWaitRequest) (*api.Allocation, error) {
	var out api.Allocation
	return &out, c.call(ctx, methodPost, api.PathAllocationWait, req, &out)
}

// ReleaseAllocation ends an interactive allocation.
func (c *Client) ReleaseAllocation(ctx context.Context, req *api.AllocationReleaseRequest) error {
	return c.call(ctx, methodPost, api.PathAllocationRelease, req, nil)
}

// LaunchStep starts a node's share of a step on the node daemon at addr.
func (n *Noded) LaunchStep(ctx context.Context, addr string, req *api.StepLaunchRequest) (*api.StepLaunchResponse, error) {
	var out api.StepLaunchResponse
	return &out, n.call(ctx, addr, api.PathStepLaunch, req, &out)
}
