package controller

import (
	"cmp"
	"slices"

	"github.com/loamhpc/loam/pkg/api"
)

// prioListed says whether sprio lists r: as Slurm, only pending jobs that
// are eligible now (not held, not waiting on a dependency, their begin
// time passed).
func prioListed(r *jobRecord, now int64) bool {
	return r.pending() && r.St.Hold == NotHeld && r.St.Begin <= now
}

// prioRows are r's sprio rows: as Slurm, one per candidate partition, the
// highest PriorityTier first (Slurm's order of a job's partition list),
// each with the job's priority and factors; -p keeps only those asked for.
func (c *Controller) prioRows(q *api.PrioQuery, r *jobRecord, jp api.JobPriority) []api.JobPriority {
	parts := slices.Clone(r.St.Partitions)
	if len(parts) == 0 {
		return []api.JobPriority{jp}
	}
	conf := c.confNow().conf
	tier := func(name string) int {
		if p, ok := conf.Partition(name); ok {
			return p.PriorityTier
		}
		return 0
	}
	slices.SortStableFunc(parts, func(a, b string) int { return cmp.Compare(tier(b), tier(a)) })
	rows := make([]api.JobPriority, 0, len(parts))
	for _, p := range parts {
		if len(q.Partitions) > 0 && !slices.Contains(q.Partitions, p) {
			continue
		}
		row := jp
		row.Partition = p
		rows = append(rows, row)
	}
	return rows
}
