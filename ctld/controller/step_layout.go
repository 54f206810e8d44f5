package controller

import (
	"fmt"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
)

// planStep decides where a step's tasks run inside the job's allocation,
// as Slurm lays out a step: the first nodes of the allocation (the -w
// nodes first), tasks spread as evenly as the nodes' CPUs allow with the
// first nodes taking the remainder, consecutive task ids on each node
// (block), or dealt round-robin with -m cyclic. Without GPU options the step gets every GPU the job
// has on its nodes; --gpus-per-task and --gpus-per-node take the first
// GPUs of each node. It is pure: the allocation and the request in, the
// layout or Slurm's error out. held is what the job's other running
// steps hold (step_share.go): the step takes only what is free, and
// holds is what it holds itself.
func planStep(alloc []api.NodeAllocation, req *api.StepCreateRequest, held map[string]*heldOnNode) (api.StepLayout, []stepHold, *api.Error) {
	if aerr := stepGRES(alloc, req); aerr != nil {
		return api.StepLayout{}, nil, aerr
	}
	busy := held
	if req.Overlap {
		busy = nil // it shares the others' CPUs and GPUs, not their memory
	}
	var (
		nodes  []api.NodeAllocation
		counts []int
		ids    [][]int
		aerr   *api.Error
	)
	if len(req.TaskNodes) > 0 {
		nodes, counts, ids, aerr = arbitrary(alloc, req) // step_dist.go
	} else {
		nodes, counts, ids, aerr = laidOut(alloc, req, busy)
	}
	if aerr != nil {
		return api.StepLayout{}, nil, aerr
	}
	out := api.StepLayout{Nodes: make([]api.StepNode, len(nodes))}
	names := make([]string, len(nodes))
	holds := make([]stepHold, len(nodes))
	shares, aerr := stepGPUShares(nodes, req.GPUs) // step_gpu_share.go
	if aerr != nil {
		return api.StepLayout{}, nil, aerr
	}
	for i, a := range nodes {
		if aerr := stepMemory(a, counts[i], req); aerr != nil {
			return api.StepLayout{}, nil, aerr
		}
		n := api.StepNode{Node: a.Node, CPUs: a.CPUs, TaskIDs: ids[i]}
		out.Tasks += len(ids[i])
		gpus, aerr := stepGPUs(a, counts[i], shares[i], req, heldOn(busy, a.Node))
		if aerr != nil {
			return api.StepLayout{}, nil, aerr
		}
		if holds[i], aerr = holdOn(a, counts[i], gpus, req, heldOn(held, a.Node)); aerr != nil {
			return api.StepLayout{}, nil, aerr
		}
		n.GPUs = gpus
		out.Nodes[i], names[i] = n, a.Node
	}
	out.NodeList = hostlist.Compress(names)
	return out, holds, nil
}

// laidOut picks the step's nodes and numbers its tasks there.
func laidOut(alloc []api.NodeAllocation, req *api.StepCreateRequest, busy map[string]*heldOnNode) ([]api.NodeAllocation, []int, [][]int, *api.Error) {
	nodes, aerr := stepNodes(alloc, req, busy)
	if aerr != nil {
		return nil, nil, nil, aerr
	}
	// Slurm's step GRES validation checks --gpus against the step's
	// nodes before any CPU count (the peer's srun -c3 -G1 in a two-node
	// job of 4 CPUs names the GPUs, not the processors).
	n := len(nodes)
	if req.NTasks > 0 {
		n = min(n, req.NTasks)
	}
	if aerr := gpusForNodes(req.GPUs, n); aerr != nil {
		return nil, nil, nil, aerr
	}
	counts, aerr := stepTasks(nodes, req)
	if aerr != nil {
		return nil, nil, nil, aerr
	}
	return nodes[:len(counts)], counts, distribute(counts, req.Distribution), nil
}

// taskIDs numbers the tasks of each node: consecutive ids per node
// (block).
func taskIDs(counts []int) [][]int {
	out := make([][]int, len(counts))
	next := 0
	for i, c := range counts {
		for k := 0; k < c; k++ {
			out[i] = append(out[i], next)
			next++
		}
	}
	return out
}

// stepNodes picks the step's nodes: the -w nodes, then others without the
// -x nodes, those where no other step holds CPUs first, as many as -N
// asks (all when 0); the step uses them in allocation order, as the
// peer's -w gpu002 in a gpu[001-002] job still numbers gpu001 node 0.
// When there are more nodes than tasks, the last ones are dropped.
func stepNodes(alloc []api.NodeAllocation, req *api.StepCreateRequest, held map[string]*heldOnNode) ([]api.NodeAllocation, *api.Error) {
	unavailable := api.NewError(api.CodeNodeConfigUnavailable)
	excluded, err := expandSet(req.Exclude)
	if err != nil {
		return nil, api.Errorf(api.CodeInvalidNodeName, "invalid -x list %q: %v", req.Exclude, err)
	}
	wanted, err := expandSet(req.NodeList)
	if err != nil {
		return nil, api.Errorf(api.CodeInvalidNodeName, "invalid -w list %q: %v", req.NodeList, err)
	}
	var first, rest []api.NodeAllocation
	for _, a := range alloc[min(max(req.Relative, 0), len(alloc)):] { // -r
		switch {
		case excluded[a.Node]:
		case wanted[a.Node]:
			first = append(first, a)
			delete(wanted, a.Node)
		default:
			rest = append(rest, a)
		}
	}
	if len(wanted) > 0 {
		return nil, unavailable // a -w node outside the allocation
	}
	all := append(first, freeFirst(rest, held)...)
	n := req.Nodes
	switch {
	case n == 0 && req.NodeList != "":
		n = len(first)
	case n == 0:
		n = len(all)
	}
	if n > len(all) || n < len(first) || n == 0 {
		return nil, unavailable
	}
	return inAllocationOrder(alloc, all[:n]), nil
}

// inAllocationOrder sorts picked as the nodes are in alloc.
func inAllocationOrder(alloc, picked []api.NodeAllocation) []api.NodeAllocation {
	in := map[string]bool{}
	for _, a := range picked {
		in[a.Node] = true
	}
	out := make([]api.NodeAllocation, 0, len(picked))
	for _, a := range alloc {
		if in[a.Node] {
			out = append(out, a)
		}
	}
	return out
}

func expandSet(list string) (map[string]bool, error) {
	out := map[string]bool{}
	if list == "" {
		return out, nil
	}
	names, err := hostlist.Expand(list)
	for _, n := range names {
		out[n] = true
	}
	return out, err
}

// stepTasks spreads the step's tasks over nodes and returns the count per
// node (fewer nodes than given when there are fewer tasks). Without -n
// the count is srun's (_set_ntasks): --ntasks-per-node on each node, else
// with -c as many tasks as the job's CPUs on the nodes hold (the peer's
// srun -c3 in a -c8 job runs 2, srun -c4 --exclusive -N1 on a 32-CPU
// node 8), else a task a node.
func stepTasks(nodes []api.NodeAllocation, req *api.StepCreateRequest) ([]int, *api.Error) {
	n := len(nodes)
	tasks := req.NTasks
	switch {
	case tasks == 0 && req.NTasksPerNode > 0:
		tasks = n * req.NTasksPerNode
	case tasks == 0 && req.CPUsPerTask > 0:
		for _, a := range nodes {
			tasks += a.CPUs / req.CPUsPerTask
		}
		tasks = max(tasks, n)
	case tasks == 0:
		tasks = n
	case tasks < 0:
		return nil, api.NewError(api.CodeBadTaskCount)
	}
	if req.TasksPerGPU > 0 {
		// slurmctld's _handle_ntasks_per_tres_step: a task for every
		// --ntasks-per-gpu of the step's GPUs at least (the peer's -n1
		// --ntasks-per-gpu=1 in a 4-GPU job runs 4 tasks), counting an
		// -G first (its -n4 -G2 --ntasks-per-gpu=1, in a job whose srun
		// inherits SLURM_GPUS_PER_NODE=4, runs 4).
		gpus := req.GPUs
		switch {
		case gpus > 0:
		case req.GPUsPerNode > 0:
			gpus = req.GPUsPerNode * n
		default:
			for _, a := range nodes {
				gpus += len(a.GPUs)
			}
		}
		tasks = max(tasks, gpus*req.TasksPerGPU)
	}
	n = min(n, tasks)
	cpt := max(req.CPUsPerTask, 1)
	// As Slurm's step layout: the step's CPUs in all must hold its
	// tasks, and each node takes as many tasks as its CPUs hold, at
	// least one (a node of an uneven allocation that holds less than a
	// task runs one anyway: the peer's -n3 -c2 in a 7,1 job runs 2,1).
	capacity := make([]int, n)
	cpus := 0
	for i := range capacity {
		capacity[i] = max(nodes[i].CPUs/cpt, 1)
		cpus += nodes[i].CPUs
	}
	if !req.Overcommit && (tasks*cpt > cpus || gpuTaskRoom(nodes[:n], capacity, req) < tasks) {
		return nil, api.NewError(api.CodeTooManyCPUs)
	}
	counts := make([]int, n)
	if req.NTasksPerNode > 0 && tasks == n*req.NTasksPerNode {
		for i := range counts {
			counts[i] = req.NTasksPerNode
		}
	} else {
		for i := range counts {
			counts[i] = tasks / n
			if i < tasks%n {
				counts[i]++
			}
		}
	}
	if !req.Overcommit {
		rebalance(counts, gpuTaskCapacity(nodes[:n], capacity, req, tasks)) // step_gpu_share.go
	}
	return counts, nil
}

// rebalance moves tasks from nodes over their CPU capacity to the first
// nodes with room; the caller checked that the total fits.
func rebalance(counts, capacity []int) {
	for i := range counts {
		for counts[i] > capacity[i] {
			j := -1
			for k := range counts {
				if counts[k] < capacity[k] {
					j = k
					break
				}
			}
			if j < 0 {
				return
			}
			counts[i]--
			counts[j]++
		}
	}
}

// stepGPUs picks the step's GPUs on one node: the first ones the job has
// there, as many as the GPU options ask, or all of them. As slurmctld
// counts a step's GRES, --gpus-per-node wins over --gpus-per-task, which
// wins over --gpus: the peer's step with --gpus-per-node=1
// --gpus-per-task=1 -n2 gets one GPU, and srun -n1 --gpus-per-task=1 in a
// --gpus-per-node=2 job (srun reads SLURM_GPUS_PER_NODE) gets two.
//
// The GPUs are the first ones no other step holds (others); too few free
// is a busy refusal, srun asks again. share is this node's part of
// --gpus (stepGPUShares).
func stepGPUs(a api.NodeAllocation, tasks, share int, req *api.StepCreateRequest, others *heldOnNode) ([]int, *api.Error) {
	want := len(a.GPUs)
	switch {
	case req.GPUsPerNode > 0:
		want = req.GPUsPerNode
	case req.GPUsPerTask > 0:
		want = tasks * req.GPUsPerTask
	case req.GPUs > 0:
		want = share
	}
	// Every GPU option given must fit in the job's GPUs there, else the
	// step is refused as the peer refuses it (step_gres.go says why).
	if max(want, tasks*req.GPUsPerTask, share) > len(a.GPUs) {
		return nil, api.NewError(api.CodeInvalidGRES)
	}
	gpus, ok := freeGPUs(a, want, others)
	if !ok {
		return nil, api.NewError(api.CodeNodesBusy)
	}
	return gpus, nil
}

// stepGRES refuses GPUs asked for a step of a job that has none, with
// the line Slurm's srun prints before its refusal, and --cpus-per-gpu
// there: with that line when it was the step's own option in a batch
// job or allocation (the peer's sbatch --wrap "srun --cpus-per-gpu=1"),
// without it when inherited (any srun in an sbatch --cpus-per-gpu=2 job
// without GPUs) or in srun's own allocation (srun --cpus-per-gpu=2).
func stepGRES(alloc []api.NodeAllocation, req *api.StepCreateRequest) *api.Error {
	gpus := req.GPUs > 0 || req.GPUsPerNode > 0 || req.GPUsPerTask > 0 || req.TasksPerGPU > 0
	if !gpus && req.CPUsPerGPU <= 0 {
		return nil
	}
	for _, a := range alloc {
		if len(a.GPUs) > 0 {
			return nil
		}
	}
	e := api.NewError(api.CodeInvalidGRES)
	if gpus || req.CPUsPerGPUGiven && !req.OwnAllocation {
		e.Detail = "Step requested GRES but job doesn't have GRES"
	}
	return e
}

// stepMemory refuses a step whose --mem or --mem-per-cpu (times the CPUs
// its tasks use there) exceeds the job's memory on node a, as Slurm does.
func stepMemory(a api.NodeAllocation, tasks int, req *api.StepCreateRequest) *api.Error {
	need := req.MemPerNode
	if need == 0 && req.MemPerCPU > 0 {
		// The CPUs its tasks use there, at most the job's (-O shares them).
		need = req.MemPerCPU * int64(min(tasks*max(req.CPUsPerTask, 1), max(a.CPUs, 1)))
	}
	if need > 0 && a.Memory > 0 && need > a.Memory {
		return api.NewError(api.CodeInvalidTaskMemory)
	}
	return nil
}

// stepName is "JOB.STEP" as Slurm prints step ids ("StepId=12.0").
func stepName(jobID, stepID uint32) string { return fmt.Sprintf("%d.%d", jobID, stepID) }
