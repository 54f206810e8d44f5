package client

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// CreateAdvResv creates an admin reservation (scontrol create
// reservation) and returns its name.
func (c *Client) CreateAdvResv(ctx context.Context, s *api.AdvResvSpec) (*api.AdvResvCreated, error) {
	var out api.AdvResvCreated
	return &out, c.call(ctx, methodPost, api.PathAdvResvCreate, s, &out)
}

// UpdateAdvResv changes an admin reservation (scontrol update
// reservation).
func (c *Client) UpdateAdvResv(ctx context.Context, u *api.AdvResvUpdate) (*api.AdvResvCreated, error) {
	var out api.AdvResvCreated
	return &out, c.call(ctx, methodPost, api.PathAdvResvUpdate, u, &out)
}

// DeleteAdvResv deletes an admin reservation (scontrol delete
// reservation).
func (c *Client) DeleteAdvResv(ctx context.Context, d *api.AdvResvDelete) (*api.AdvResvCreated, error) {
	var out api.AdvResvCreated
	return &out, c.call(ctx, methodPost, api.PathAdvResvDelete, d, &out)
}

// AdvResvs lists the admin reservations (scontrol show reservation,
// sinfo -T); q.Names narrows the list.
func (c *Client) AdvResvs(ctx context.Context, q *api.ResvQuery) (*api.AdvResvsResponse, error) {
	var out api.AdvResvsResponse
	return &out, c.call(ctx, methodPost, api.PathAdvResvList, q, &out)
}
