package schedengine

import "github.com/loamhpc/loam/pkg/sched"

// SetAdminReservations implements the controller's optional engine hook
// for administrators' advance reservations: the next cycles schedule
// around them.
func (e *Engine) SetAdminReservations(rs []sched.AdminReservation) {
	e.cl.SetAdminReservations(rs)
}
