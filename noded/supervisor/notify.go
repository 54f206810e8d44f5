package supervisor

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// scontrol notify reaches a batch job as a line in its standard error,
// written by the supervisor as slurmstepd logs the message there. The
// line goes through the loop like every order, so that it lands between,
// never inside, the supervisor's other lines, and only while the job runs.

// Notify writes req's message to the job's standard error. The answer is
// Unknown when the job has no batch step (an allocation on a node other
// than the batch host), which has no file to write it to.
func (c *Client) Notify(ctx context.Context, req api.NotifyRequest) (api.NodedResponse, error) {
	return c.order(ctx, wireRequest{Op: opNotify, Notify: &req})
}

// notify carries out a notify order in the loop.
func (s *Supervisor) notify(req request) {
	if !s.launch.Request.Batch {
		if req.resp != nil {
			req.resp.Unknown = true
		}
		return
	}
	s.job.Announce(notifyLine(s.launch.Node, req.notify.Message))
}

// notifyLine is slurmstepd's line for a notification: its error log
// line, which the batch step's standard error receives.
func notifyLine(node, msg string) string {
	return "slurmstepd-" + node + ": error: " + msg + "\n"
}
