package controller

import "github.com/loamhpc/loam/pkg/job"

// taskShare is what slurmctld asks of each node for a job whose GPUs
// come from its tasks (-n with --ntasks-per-gpu and no GPU option): the
// tasks are shared equally over the job's least node count, so each node
// must hold that share's CPUs, and a fixed -N must divide the tasks. The
// peer (32 GPU nodes of 64 CPUs) refuses -n65 --ntasks-per-gpu=1
// ("Requested node configuration is not available": 65 CPUs on one
// node), -n130 -N2-30 (65 on each of 2), -n16 -N3 and -n64 -N9 (uneven),
// and runs -n64 on 8 nodes, -n65 -N2-20 on 9 and -n12 -N2-4 on 2.
// cpus is 0 when the rule does not apply.
func taskShare(q *job.Request) (cpus int, uneven bool) {
	if !q.GPUsFromTasks || q.NTasksPerGPU == 0 || q.NTasks == 0 || q.NTasksPerNode > 0 || q.Overcommit {
		return 0, false
	}
	least := max(q.MinNodes, 1)
	fixed := q.NodesSet && q.MaxNodes == q.MinNodes
	if fixed && q.NTasks%least != 0 {
		return 0, true
	}
	return (q.NTasks*max(q.CPUsPerTask, 1) + least - 1) / least, false
}
