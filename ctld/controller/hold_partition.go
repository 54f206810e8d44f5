package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// inactivePartition is what Slurm answers after it changed a pending job
// whose partition is INACTIVE: the change stands (a hold holds, a release
// releases) but the answer is "Requested partition configuration not
// available now", as the peer's scontrol hold and release of a job in
// its own INACTIVE partition say. A DOWN or DRAIN partition answers
// nothing. A job left unheld shows PartitionInactive at once. The
// partition is the first the job asked for, as Slurm checks the job's own.
func (c *Controller) inactivePartition(r *jobRecord) *api.Error {
	if !r.pending() {
		return nil
	}
	name := r.St.Partition
	if len(r.St.Partitions) > 0 {
		name = r.St.Partitions[0]
	}
	p, ok := c.confNow().parts[name]
	if !ok || p.State != "INACTIVE" {
		return nil
	}
	if r.St.Hold == NotHeld {
		r.St.Reason = job.ReasonPartitionInactive // at once, as Slurm's check sets it
	}
	return api.NewError(api.CodePartConfigUnavailable)
}
