package cluster

import (
	"slices"

	"github.com/loamhpc/loam/pkg/sched"
)

// SetAdminReservations replaces the administrators' advance reservations
// that the next snapshots carry. The caller (the controller, which stores
// them) owns their life: creation, updates, deletion at their end. The
// list is copied; its order is kept.
func (c *Cluster) SetAdminReservations(rs []sched.AdminReservation) {
	c.adv = make([]sched.AdminReservation, len(rs))
	for i, r := range rs {
		r.Nodes = slices.Clone(r.Nodes)
		c.adv[i] = r
	}
}

// AdminReservations returns the reservations the snapshots carry. The
// slice is the cluster's own: read it, do not keep it.
func (c *Cluster) AdminReservations() []sched.AdminReservation { return c.adv }
