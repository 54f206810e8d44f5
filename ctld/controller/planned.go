package controller

import (
	"slices"

	"github.com/loamhpc/loam/pkg/api"
)

// Slurm 22.05's backfill scheduler marks the idle nodes it has planned
// for a pending job PLANNED: sinfo shows them "planned" ("plnd"),
// scontrol show node State=IDLE+PLANNED, and sinfo -t planned selects
// them. Loam's scheduler keeps a reservation for each blocked job it
// plans; the idle nodes such a reservation names get the same flag.
// Nodes running jobs (mixed, allocated) do not, as in Slurm, and the
// flag goes as soon as the reservation does, where Slurm keeps it until
// its next backfill cycle.

// plannedNodes is the set of nodes the scheduler's reservations name,
// held or awaited. The caller holds c.mu.
func (c *Controller) plannedNodes() map[string]bool {
	var set map[string]bool
	for _, id := range c.resvIDs {
		r := c.jobs[id]
		if r == nil || r.resv == nil || !r.pending() {
			continue
		}
		for _, list := range [][]api.NodeAllocation{r.resv.Held, r.resv.Awaiting} {
			for _, a := range list {
				if set == nil {
					set = map[string]bool{}
				}
				set[a.Node] = true
			}
		}
	}
	return set
}

// markPlanned adds FlagPlanned to an idle node in planned that is not
// drained or failed: Slurm plans only nodes a job could start on.
func markPlanned(n *api.Node, planned map[string]bool) {
	if !planned[n.Name] || n.State != api.NodeIdle {
		return
	}
	for _, f := range []string{api.FlagDrain, api.FlagFail, api.FlagNotResponding, api.FlagPlanned} {
		if slices.Contains(n.StateFlags, f) {
			return
		}
	}
	n.StateFlags = append(n.StateFlags, api.FlagPlanned)
}
