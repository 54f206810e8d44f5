package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// A partition's Alternate takes the submissions the partition refuses:
// while its State is DRAIN or INACTIVE a job asking for it goes to the
// alternate instead (squeue shows the alternate), as slurmctld's
// _alt_part_test does; DOWN and UP keep the job. Only submission looks at
// it: a job already queued stays where it is.

// routePartition is the partition that takes a submission to p: p itself
// when it takes jobs, else its Alternate, followed from one partition to
// the next while each refuses jobs. An alternate that names no partition
// is "Invalid partition name specified"; a chain that ends, or comes back
// round, without a partition that takes jobs is "Required partition not
// available". Neither carries a detail: the peer's sbatch prints one line.
func routePartition(parts map[string]*slurmconf.Partition, p *slurmconf.Partition) (*slurmconf.Partition, *api.Error) {
	for hops := 0; !p.TakesJobs(); hops++ {
		if p.Alternate == "" || hops >= len(parts) {
			return nil, api.NewError(api.CodePartitionNotAvail)
		}
		next, ok := parts[p.Alternate]
		if !ok {
			return nil, api.NewError(api.CodeInvalidPartitionName)
		}
		p = next
	}
	return p, nil
}
