package client

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// Shares returns tenants' and users' shares, usage and quota use (sshare).
func (c *Client) Shares(ctx context.Context, q *api.SharesQuery) (*api.SharesResponse, error) {
	var out api.SharesResponse
	return &out, c.call(ctx, methodPost, api.PathShares, q, &out)
}

// Priorities returns pending jobs' priority factors, or with q.History
// their audit trail (sprio).
func (c *Client) Priorities(ctx context.Context, q *api.PrioQuery) (*api.PrioResponse, error) {
	var out api.PrioResponse
	return &out, c.call(ctx, methodPost, api.PathPriorities, q, &out)
}

// Reservations returns the reservations the scheduler holds (scontrol
// show reservation).
func (c *Client) Reservations(ctx context.Context, q *api.ResvQuery) (*api.ReservationsResponse, error) {
	var out api.ReservationsResponse
	return &out, c.call(ctx, methodPost, api.PathReservations, q, &out)
}

// JobLog returns one job's event log.
func (c *Client) JobLog(ctx context.Context, q *api.JobLogQuery) (*api.JobLogResponse, error) {
	var out api.JobLogResponse
	return &out, c.call(ctx, methodPost, api.PathJobLog, q, &out)
}

// PreemptReport returns preemption statistics per account and period
// (sreport loam preemption).
func (c *Client) PreemptReport(ctx context.Context, q *api.ReportQuery) (*api.PreemptReport, error) {
	var out api.PreemptReport
	return &out, c.call(ctx, methodPost, api.PathPreemptReport, q, &out)
}

// UtilReport returns the cluster's allocated CPU and GPU time (sreport
// cluster utilization).
func (c *Client) UtilReport(ctx context.Context, q *api.ReportQuery) (*api.UtilReport, error) {
	var out api.UtilReport
	return &out, c.call(ctx, methodPost, api.PathUtilReport, q, &out)
}
