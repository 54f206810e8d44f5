package client

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// Top moves jobs to the top of their owner's queue (scontrol top).
func (c *Client) Top(ctx context.Context, req *api.TopRequest) (*api.TopResponse, error) {
	var out api.TopResponse
	return &out, c.call(ctx, methodPost, api.PathTop, req, &out)
}

// Notify sends a message to a job's user (scontrol notify).
func (c *Client) Notify(ctx context.Context, req *api.NotifyRequest) error {
	return c.call(ctx, methodPost, api.PathNotify, req, nil)
}
