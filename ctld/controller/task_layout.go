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
	cpt := taskCPUs(q)
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

// taskCPUs is one task's CPUs: -c, or --gpus-per-task times
// --cpus-per-gpu (the peer's -N2 -n4 --gpus-per-task=1 --cpus-per-gpu=2
// holds 6,2 CPUs and runs 3,1 tasks, CPU_IDs=0-3,32-33 and 0-1).
func taskCPUs(q *job.Request) int {
	return max(q.CPUsPerTask, gpuTaskCPUs(q), 1) // shape_gpu.go
}

// runningTasks is the task count slurmctld shows for a running job that
// holds nodes nodes, given the count shown while it pended: without -n a
// task a node it was given (the peer's sbatch -N1-2 on idle nodes and
// --gpus=12 on 8-GPU nodes both show NumNodes=2 NumTasks=2).
//
// With --ntasks-per-node, that many on each node it was given, as
// slurmctld recounts them at the start: the peer shows --gpus=16
// --ntasks-per-node=8 with NumNodes=2 NumTasks=16 (its batch step still
// sees SLURM_NTASKS=8), -n5 --ntasks-per-node=2 with 3 nodes and 6 tasks,
// and -n1 --ntasks-per-node=2 with 2.
func runningTasks(q *job.Request, pending, nodes int) int {
	if q.NTasksPerNode > 0 {
		return nodes * q.NTasksPerNode
	}
	if q.NTasks > 0 {
		return pending
	}
	return max(pending, nodes)
}

// launchTasks is the task count a job's batch step is told
// (SLURM_NTASKS): -n as given, else with --ntasks-per-node that many on
// each of its nodes, as slurmctld recounts them at the start (the peer's
// -N3-4 --ntasks-per-node=2 on 4 nodes sees SLURM_NTASKS=8); 0: none.
func launchTasks(q *job.Request, nodes int) int {
	if q.NTasks == 0 && q.NTasksPerNode > 0 {
		return nodes * q.NTasksPerNode
	}
	return q.NTasks
}

// spreadMaxNodes is the node count a --spread-job job without -N may
// grow to, as slurmctld shows it pending: a task a node, no more than its
// largest partition has (the peer shows -n4 --spread-job as NumNodes=1-4
// and -n100 as 2-40 on its 40 nodes, -n1 as 1-1; without -n it has no
// task count and shows 1). 0 for other jobs.
func (c *Controller) spreadMaxNodes(r *jobRecord) int {
	q := r.Req
	if !q.SpreadJob || q.NodesSet || q.MinNodes > 0 || q.NTasksPerNode > 0 || q.Overcommit || q.NTasks < 1 {
		return 0
	}
	cs := c.confNow()
	most := 0
	for _, name := range r.St.Partitions {
		if p, ok := cs.parts[name]; ok {
			most = max(most, len(p.Nodes))
		}
	}
	return min(q.NTasks, most)
}
