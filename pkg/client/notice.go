package client

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// WaitNotices waits for the scontrol notify messages of an interactive
// allocation the caller holds (srun, salloc), at most req.Timeout seconds.
func (c *Client) WaitNotices(ctx context.Context, req *api.NoticeWaitRequest) (*api.NoticeWaitResponse, error) {
	var out api.NoticeWaitResponse
	return &out, c.call(ctx, methodPost, api.PathNoticeWait, req, &out)
}
