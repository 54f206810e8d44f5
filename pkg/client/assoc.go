package client

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// Assocs returns tenants.conf as Slurm's association tree (sacctmgr).
func (c *Client) Assocs(ctx context.Context, q *api.AssocQuery) (*api.AssocResponse, error) {
	var out api.AssocResponse
	return &out, c.call(ctx, methodPost, api.PathAssocs, q, &out)
}
