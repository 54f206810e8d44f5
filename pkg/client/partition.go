package client

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// UpdatePartition changes or creates a partition (scontrol update and
// create partition) and answers it as it now stands.
func (c *Client) UpdatePartition(ctx context.Context, u *api.PartitionUpdate) (*api.PartitionsResponse, error) {
	var out api.PartitionsResponse
	return &out, c.call(ctx, methodPost, api.PathPartitionUpdate, u, &out)
}

// DeletePartition removes a partition (scontrol delete partition=NAME).
func (c *Client) DeletePartition(ctx context.Context, d *api.PartitionDelete) error {
	var out struct{}
	return c.call(ctx, methodPost, api.PathPartitionDelete, d, &out)
}
