package client

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// SetTrigger sets an event trigger (strigger --set) and returns its id.
func (c *Client) SetTrigger(ctx context.Context, t api.Trigger) (*api.TriggerSetResponse, error) {
	var out api.TriggerSetResponse
	return &out, c.call(ctx, methodPost, api.PathTriggerSet, &api.TriggerSetRequest{Trigger: t}, &out)
}

// Triggers lists the event triggers (strigger --get).
func (c *Client) Triggers(ctx context.Context) (*api.TriggersResponse, error) {
	var out api.TriggersResponse
	return &out, c.call(ctx, methodPost, api.PathTriggerGet, struct{}{}, &out)
}

// ClearTriggers clears the event triggers a request matches (strigger
// --clear).
func (c *Client) ClearTriggers(ctx context.Context, r *api.TriggerClearRequest) (*api.TriggerClearResponse, error) {
	var out api.TriggerClearResponse
	return &out, c.call(ctx, methodPost, api.PathTriggerClear, r, &out)
}
