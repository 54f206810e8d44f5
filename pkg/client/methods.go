package client

import (
	"context"
	"os"

	"github.com/loamhpc/loam/pkg/api"
)

// Ping asks the controller whether it is up.
func (c *Client) Ping(ctx context.Context) (*api.PingResponse, error) {
	var out api.PingResponse
	return &out, c.call(ctx, methodGet, api.PathPing, nil, &out)
}

// Submit submits a batch job (or, with TestOnly, estimates it). An empty
// SubmitHost is filled with this host's name.
func (c *Client) Submit(ctx context.Context, req *api.SubmitRequest) (*api.SubmitResponse, error) {
	if req.SubmitHost == "" {
		req.SubmitHost, _ = os.Hostname()
	}
	var out api.SubmitResponse
	return &out, c.call(ctx, methodPost, api.PathSubmit, req, &out)
}

// Jobs returns full job records.
func (c *Client) Jobs(ctx context.Context, q *api.JobQuery) (*api.JobsResponse, error) {
	var out api.JobsResponse
	return &out, c.call(ctx, methodPost, api.PathJobs, q, &out)
}

// JobTable returns the compact listing of q.Fields, the fast path for
// large queues.
func (c *Client) JobTable(ctx context.Context, q *api.JobQuery) (*api.JobTable, error) {
	data, err := c.raw(ctx, methodPost, api.PathJobTable, q)
	if err != nil {
		return nil, err
	}
	t, err := api.DecodeJobTable(data)
	if err != nil {
		return nil, api.Errorf(api.CodeError, "%v", err)
	}
	return t, nil
}

// Cancel cancels or signals jobs (scancel).
func (c *Client) Cancel(ctx context.Context, req *api.CancelRequest) (*api.JobResults, error) {
	var out api.JobResults
	return &out, c.call(ctx, methodPost, api.PathCancel, req, &out)
}

// Hold holds jobs (scontrol hold / uhold).
func (c *Client) Hold(ctx context.Context, req *api.HoldRequest) (*api.JobResults, error) {
	var out api.JobResults
	return &out, c.call(ctx, methodPost, api.PathHold, req, &out)
}

// Release releases held jobs (scontrol release).
func (c *Client) Release(ctx context.Context, req *api.ReleaseRequest) (*api.JobResults, error) {
	var out api.JobResults
	return &out, c.call(ctx, methodPost, api.PathRelease, req, &out)
}

// Update changes jobs (scontrol update job).
func (c *Client) Update(ctx context.Context, req *api.UpdateRequest) (*api.JobResults, error) {
	var out api.JobResults
	return &out, c.call(ctx, methodPost, api.PathUpdate, req, &out)
}

// Requeue requeues jobs (scontrol requeue / requeuehold).
func (c *Client) Requeue(ctx context.Context, req *api.RequeueRequest) (*api.JobResults, error) {
	var out api.JobResults
	return &out, c.call(ctx, methodPost, api.PathRequeue, req, &out)
}

// Nodes lists nodes (sinfo, scontrol show node).
func (c *Client) Nodes(ctx context.Context, q *api.NodeQuery) (*api.NodesResponse, error) {
	var out api.NodesResponse
	return &out, c.call(ctx, methodPost, api.PathNodes, q, &out)
}

// UpdateNodes changes node state (scontrol update nodename=...).
func (c *Client) UpdateNodes(ctx context.Context, req *api.NodeUpdateRequest) (*api.NodeUpdateResponse, error) {
	var out api.NodeUpdateResponse
	return &out, c.call(ctx, methodPost, api.PathNodeUpdate, req, &out)
}

// Partitions lists partitions.
func (c *Client) Partitions(ctx context.Context) (*api.PartitionsResponse, error) {
	var out api.PartitionsResponse
	return &out, c.call(ctx, methodGet, api.PathPartitions, nil, &out)
}

// Config returns the running configuration (scontrol show config).
func (c *Client) Config(ctx context.Context) (*api.ConfigResponse, error) {
	var out api.ConfigResponse
	return &out, c.call(ctx, methodGet, api.PathConfig, nil, &out)
}

// Reconfigure makes the controller reread its configuration.
func (c *Client) Reconfigure(ctx context.Context) (*api.ReconfigureResponse, error) {
	var out api.ReconfigureResponse
	return &out, c.call(ctx, methodPost, api.PathReconfigure, struct{}{}, &out)
}

// Accounting queries job history (sacct).
func (c *Client) Accounting(ctx context.Context, q *api.AcctQuery) (*api.AcctResponse, error) {
	var out api.AcctResponse
	return &out, c.call(ctx, methodPost, api.PathAccounting, q, &out)
}

// Register registers a node daemon (daemon clients only).
func (c *Client) Register(ctx context.Context, req *api.RegisterRequest) (*api.RegisterResponse, error) {
	var out api.RegisterResponse
	return &out, c.call(ctx, methodPost, api.PathNodeRegister, req, &out)
}

// Heartbeat reports a node daemon alive (daemon clients only).
func (c *Client) Heartbeat(ctx context.Context, req *api.HeartbeatRequest) (*api.HeartbeatResponse, error) {
	var out api.HeartbeatResponse
	return &out, c.call(ctx, methodPost, api.PathNodeHeartbeat, req, &out)
}

// JobEvents reports job starts and ends (daemon clients only).
func (c *Client) JobEvents(ctx context.Context, req *api.JobEventsRequest) (*api.JobEventsResponse, error) {
	var out api.JobEventsResponse
	return &out, c.call(ctx, methodPost, api.PathNodeEvents, req, &out)
}
