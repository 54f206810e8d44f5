package controller

import (
	"fmt"
	"math"

	"github.com/loamhpc/loam/pkg/api"
)

// stepGPUShares splits a step's --gpus (gpus, 0: none asked) over its
// nodes: an even share a node, rounded up, as far as the job has GPUs
// there, and what a node cannot hold on the next nodes with room. So
// srun in a --gpus=3 job that holds 2 and 1 GPUs on its two nodes (srun
// reads SLURM_GPUS=3) takes all three, as the peer's does, where an even
// 2 a node did not fit the second node. More GPUs than the nodes hold
// is Slurm's GRES refusal.
func stepGPUShares(nodes []api.NodeAllocation, gpus int) ([]int, *api.Error) {
	out := make([]int, len(nodes))
	if gpus <= 0 || len(nodes) == 0 {
		return out, nil
	}
	if aerr := gpusForNodes(gpus, len(nodes)); aerr != nil {
		return nil, aerr
	}
	even := (gpus + len(nodes) - 1) / len(nodes)
	left := gpus
	for i, a := range nodes {
		out[i] = min(even, len(a.GPUs), left)
		left -= out[i]
	}
	for i, a := range nodes {
		add := min(len(a.GPUs)-out[i], left)
		out[i] += add
		left -= add
	}
	if left > 0 {
		return nil, api.NewError(api.CodeInvalidGRES)
	}
	return out, nil
}

// gpuTaskCapacity caps the tasks each node can run (capacity, by CPUs) at
// what its GPUs hold for a step with --gpus-per-task, when the nodes hold
// all tasks that way; else capacity as it is (and stepGPUs refuses). So
// srun -n8 in a -N2 -n8 --gpus-per-task=1 -c2 job that holds 7,1 GPUs
// (srun reads SLURM_GPUS_PER_TASK but not SLURM_CPUS_PER_TASK) runs 7,1
// tasks, as the peer's does.
func gpuTaskCapacity(nodes []api.NodeAllocation, capacity []int, req *api.StepCreateRequest, tasks int) []int {
	if req.GPUsPerTask <= 0 || req.GPUsPerNode > 0 {
		return capacity
	}
	out := make([]int, len(capacity))
	total := 0
	for i, a := range nodes {
		out[i] = min(capacity[i], len(a.GPUs)/req.GPUsPerTask)
		total += out[i]
	}
	if total < tasks {
		return capacity
	}
	return out
}

// gpusForNodes refuses a step's --gpus below its node count: each node
// needs one of them (the peer's srun -G1 in a two-node job).
func gpusForNodes(gpus, nodes int) *api.Error {
	if gpus <= 0 || gpus >= nodes {
		return nil
	}
	e := api.NewError(api.CodeInvalidGRES)
	e.Detail = fmt.Sprintf("Step requested gres=gpu:%d is less than the requested min nodes=%d", gpus, nodes)
	return e
}

// gpuTaskRoom is how many tasks of a --gpus-per-task step the nodes
// hold, each at most its CPUs' share and its GPUs over the GPUs a task:
// the peer refuses srun -n2 --gpus-per-task=2 on a node of 2 GPUs, and
// -n3 --gpus-per-task=1 there, as "More processors requested than
// permitted". A node with fewer GPUs than one task needs is left to
// stepGPUs (an invalid GRES request, as -n1 --gpus-per-task=4 there), and
// --gpus-per-node binds instead of limiting.
func gpuTaskRoom(nodes []api.NodeAllocation, capacity []int, req *api.StepCreateRequest) int {
	room := 0
	for i, a := range nodes {
		if req.GPUsPerTask <= 0 || req.GPUsPerNode > 0 || len(a.GPUs) < req.GPUsPerTask {
			return math.MaxInt
		}
		room += min(capacity[i], len(a.GPUs)/req.GPUsPerTask)
	}
	return room
}
