package client

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// Stats returns the controller's statistics, after resetting them when
// reset is set (sdiag, sdiag -r; operators only).
func (c *Client) Stats(ctx context.Context, reset bool) (*api.StatsResponse, error) {
	var out api.StatsResponse
	return &out, c.call(ctx, methodPost, api.PathStats, &api.StatsRequest{Reset: reset}, &out)
}
