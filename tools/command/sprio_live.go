package command

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// LiveController is the part of the controller's API behind sprio,
// sshare, sreport and scontrol show reservation/joblog: the live views of
// priorities, shares, reservations, job events and reports. The real
// client implements it; a Controller without it makes these commands
// fail with "Requested operation not supported on this system".
type LiveController interface {
	Shares(ctx context.Context, q *api.SharesQuery) (*api.SharesResponse, error)
	Priorities(ctx context.Context, q *api.PrioQuery) (*api.PrioResponse, error)
	Reservations(ctx context.Context, q *api.ResvQuery) (*api.ReservationsResponse, error)
	JobLog(ctx context.Context, q *api.JobLogQuery) (*api.JobLogResponse, error)
	PreemptReport(ctx context.Context, q *api.ReportQuery) (*api.PreemptReport, error)
	UtilReport(ctx context.Context, q *api.ReportQuery) (*api.UtilReport, error)
}

// dialLive dials the controller and returns its live views, printing
// prog's error when it cannot.
func dialLive(ctx context.Context, env *Env, w *output) (LiveController, bool) {
	c, err := env.Dial(ctx)
	if err != nil {
		w.errf("%s", errText(err))
		return nil, false
	}
	lc, ok := c.(LiveController)
	if !ok {
		w.errf("%s", api.CodeNotSupported.Text())
	}
	return lc, ok
}
