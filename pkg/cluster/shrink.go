package cluster

import (
	"fmt"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

// DropNode takes node out of running job id's allocation at when: what the
// job held there is free again and no longer counted for it. It is what
// slurmctld's excise_node_from_job does for a --no-kill job that lost a
// node; the job keeps running on the rest. Its usage on node is charged up
// to when. A job's last node cannot be dropped (the job ends instead).
func (c *Cluster) DropNode(id sched.JobID, node string, when time.Time) error {
	r, err := c.runningRec(id, "drop node")
	if err != nil {
		return err
	}
	run := &c.running[r.idx]
	i := slices.IndexFunc(run.Alloc, func(a sched.NodeAlloc) bool { return a.Node == node })
	if i < 0 {
		return fmt.Errorf("drop node %s from job %d: not in its allocation: %w", node, id, ErrInvalid)
	}
	if len(run.Alloc) == 1 {
		return fmt.Errorf("drop node %s from job %d: its only node: %w", node, id, ErrInvalid)
	}
	gone := run.Alloc[i : i+1 : i+1]
	part := sched.RunningJob{Tenant: run.Tenant, User: run.User, Start: run.Start, Alloc: gone}
	c.chargeEnded(&part, when) // the rest is charged with the job, as before
	c.free(gone)
	run.Alloc = slices.Delete(slices.Clone(run.Alloc), i, i+1)
	return nil
}
