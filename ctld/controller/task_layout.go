package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// tasksPerNode lays the job's tasks over its allocation as Slurm 22.05
// does for SLURM_TASKS_PER_NODE: --ntasks-per-node when given, else one
// task per node and then round by round one more on every node whose
// CPUs hold another task (CPUs / --cpus-per-task), in allocation order.
// So the tasks follow the CPUs: the peer's -N2 -n4 holds 3,1 CPUs and runs
// 3,1 tasks, -N2 -n4 -c2 holds 6,2 and runs 3,1, and an exclusive
// -N2 -n4 (32 CPUs each) runs 2(x2). Tasks that no CPU holds (an
// overcommitted job) are dealt round-robin. Without -n the job runs as
// many tasks as its CPUs hold (all CPUs / --cpus-per-task), as the peer's
// --exclusive job on a 32-CPU node shows SLURM_TASKS_PER_NODE=32.
func tasksPerNode(q *job.Request, alloc []api.NodeAllocation) []int {
	n := len(alloc)
	out := make([]int, n)
	if q.NTasksPerNode > 0 {
		for i := range out {
			out[i] = q.NTasksPerNode
		}
		return out
	}
	if n == 0 {
		return out
	}
	cpt := max(q.CPUsPerTask, 1)
	left := q.NTasks
	if left == 0 {
		for _, a := range alloc {
			left += a.CPUs
		}
		left /= cpt
	}
	left = max(left, n)
	for placed := true; left > 0 && placed; {
		placed = false
		for i := range out {
			if left > 0 && (out[i] == 0 || (out[i]+1)*cpt <= alloc[i].CPUs) {
				out[i]++
				left--
				placed = true
			}
		}
	}
	for i := 0; left > 0; i = (i + 1) % n {
		out[i]++
		left--
	}
	return out
}
