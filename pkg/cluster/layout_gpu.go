package cluster

import (
	"slices"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/sched"
)

// CPUsPerGPU is the request's --cpus-per-gpu, for JobSpec.CPUsPerGPU.
func CPUsPerGPU(req *job.Request) int { return max(req.CPUsPerGPU, 0) }

// GPUsPerTask is the request's --gpus-per-task GPU count, for
// JobSpec.GPUsPerTask; 0 with --ntasks-per-node, whose GPUs the scheduler
// already counts per node (ShapeOf).
func GPUsPerTask(req *job.Request) int {
	if req.NTasksPerNode > 0 {
		return 0
	}
	return gpuCount(req.GPUsPerTask)
}

// settleGPUs lays out, in place, the GPUs of a job that asks for them per
// job (--gpus) or per task (--gpus-per-task) over the nodes the scheduler
// gave it, as Slurm's cons_tres does, and reports whether it did:
//
//   - --gpus fills the nodes one by one in node order, each keeping at
//     least one GPU (the peer runs --gpus=12 on 8-GPU nodes as 8,4,
//     -N2 --gpus=3 as 2,1 and -N3 --gpus=4 as 2,1,1), each up to the
//     GPUs it has free, and the CPUs fill as a CPU job's (-N2 -n4
//     --gpus=4: 3,1 CPUs and 3,1 GPUs);
//   - --gpus-per-task lays the tasks out as a CPU job's (fillCPUs), no
//     more on a node than its free GPUs hold, and the GPUs follow the
//     tasks (the peer runs -N2 -n4 --gpus-per-task=1 as 3,1 tasks with
//     3,1 GPUs, -N2 -n6 --gpus-per-task=2 as 4,2 tasks with 8,4 GPUs).
//
// Free is what no running job uses, no other job's reservation holds and
// no later start of the same plan takes. When the nodes cannot take the
// layout it reports false and changes nothing.
func (c *Cluster) settleGPUs(spec *JobSpec, out []sched.NodeAlloc, later map[string]nodeUse) bool {
	sh := &spec.Shape
	if sh.GPUs <= 0 || sh.GPUsPerNode > 0 {
		return false
	}
	room := make([]int, len(out))
	free := make([][]int, len(out))
	for i, a := range out {
		f, ok := c.freeGPUSlots(a.Node, spec.ID, a.GPUs, later)
		if !ok {
			return false
		}
		free[i], room[i] = f, len(a.GPUs)+len(f)
	}
	var want []int
	var cpus []int
	if spec.GPUsPerTask > 0 {
		if sh.CPUs <= 0 {
			return false
		}
		var ok bool
		if cpus, want, ok = c.taskGPUs(spec, out, room, later); !ok {
			return false
		}
	} else {
		var ok bool
		if want, ok = fillGPUs(sh.GPUs, room); !ok {
			return false
		}
	}
	perGPU := int64(0)
	if sh.MemPerGPU > 0 && sh.MemPerNode == 0 && sh.MemPerCPU == 0 {
		perGPU = sh.MemPerGPU
		if !c.memFits(out, want, perGPU, later) {
			return false
		}
	}
	moveGPUs(out, want, free)
	for i := range out {
		if cpus != nil {
			out[i].CPUs = cpus[i]
			if perCPU := memPerCPU(spec); perCPU > 0 {
				out[i].MemMB = int64(cpus[i]) * perCPU
			}
		}
		if perGPU > 0 {
			out[i].MemMB = int64(want[i]) * perGPU
		}
	}
	switch {
	case cpus == nil && spec.CPUsPerGPU > 0:
		c.cpusFollowGPUs(spec, out, later)
	case cpus == nil && sh.CPUs > 0:
		c.fillCPUs(spec, out, later) // -N2 -n4 --gpus=4: 3,1 CPUs as well
	}
	return true
}

// cpusFollowGPUs gives every node --cpus-per-gpu CPUs for each of its
// GPUs, in place, where the nodes have them free (the peer's -N2 --gpus=2
// --cpus-per-gpu=2 holds 2(x2) CPUs); otherwise the CPUs stay.
func (c *Cluster) cpusFollowGPUs(spec *JobSpec, out []sched.NodeAlloc, later map[string]nodeUse) {
	perCPU := memPerCPU(spec)
	want := make([]int, len(out))
	for i, a := range out {
		want[i] = max(len(a.GPUs)*spec.CPUsPerGPU, 1)
		free, ok := c.freeTasks(a.Node, 1, perCPU, later)
		if !ok || free < want[i] {
			return
		}
	}
	for i := range out {
		out[i].CPUs = want[i]
		if perCPU > 0 {
			out[i].MemMB = int64(want[i]) * perCPU
		}
	}
}

// fillGPUs deals gpus over nodes that can hold room[i] each: one GPU a
// node while they last, then the rest fills the nodes in order.
func fillGPUs(gpus int, room []int) ([]int, bool) {
	want := make([]int, len(room))
	left := gpus
	for i := range want {
		if left > 0 && room[i] > 0 {
			want[i], left = 1, left-1
		}
	}
	for i := range want {
		add := min(room[i]-want[i], left)
		want[i] += add
		left -= add
	}
	return want, left == 0
}

// taskGPUs lays a --gpus-per-task job's tasks out as fillCPUs does, each
// node holding no more tasks than its free CPUs and GPUs (room) allow,
// and returns the CPUs and GPUs of each node.
func (c *Cluster) taskGPUs(spec *JobSpec, out []sched.NodeAlloc, room []int, later map[string]nodeUse) ([]int, []int, bool) {
	total, unit, free, ok := c.taskRoom(spec, out, later) // layout.go
	if !ok {
		return nil, nil, false
	}
	for i := range free {
		free[i] = min(free[i], room[i]/spec.GPUsPerTask)
	}
	tasks, ok := spill(total, free)
	if !ok {
		return nil, nil, false
	}
	cpus, gpus := make([]int, len(out)), make([]int, len(out))
	for i, t := range tasks {
		cpus[i], gpus[i] = t*unit, t*spec.GPUsPerTask
	}
	return cpus, gpus, true
}

// freeGPUSlots lists the GPUs of node that job may add to mine (its
// GPUs there now): not used, not held by another job's reservation, not
// taken by a later start of the plan.
func (c *Cluster) freeGPUSlots(node string, job sched.JobID, mine []int, later map[string]nodeUse) ([]int, bool) {
	i, ok := c.nodeIdx[node]
	if !ok {
		return nil, false
	}
	l := later[node]
	var out []int
	for g, used := range c.used[i].gpus {
		if used || slices.Contains(mine, g) || (g < len(l.gpus) && l.gpus[g]) || c.gpuHeld(node, g, job) {
			continue
		}
		out = append(out, g)
	}
	return out, true
}

// gpuHeld reports whether another job's reservation holds GPU g of node.
func (c *Cluster) gpuHeld(node string, g int, job sched.JobID) bool {
	for _, r := range c.resv {
		if r.Job == job {
			continue
		}
		for _, a := range r.Alloc {
			if a.Node == node && slices.Contains(a.GPUs, g) {
				return true
			}
		}
	}
	return false
}

// memFits reports whether every node has the memory for want[i] GPUs of
// perGPU MB besides what is used and what later starts take.
func (c *Cluster) memFits(out []sched.NodeAlloc, want []int, perGPU int64, later map[string]nodeUse) bool {
	for i, a := range out {
		k, ok := c.nodeIdx[a.Node]
		if !ok {
			return false
		}
		if c.used[k].mem+later[a.Node].mem+int64(want[i])*perGPU > c.nodes[k].MemMB {
			return false
		}
	}
	return true
}

// moveGPUs gives node i want[i] GPUs, in place: the lowest of those it has,
// then the lowest of free[i]. The borrowed marks of the GPUs given up go
// to the GPUs added, so the job borrows as many as before.
func moveGPUs(out []sched.NodeAlloc, want []int, free [][]int) {
	marked := slices.ContainsFunc(out, func(a sched.NodeAlloc) bool { return len(a.Borrowed) > 0 })
	type slot struct {
		gpu      int
		borrowed bool
	}
	var given []bool
	nodes := make([][]slot, len(out))
	for i, a := range out {
		for k, g := range a.GPUs {
			nodes[i] = append(nodes[i], slot{g, k < len(a.Borrowed) && a.Borrowed[k]})
		}
		slices.SortFunc(nodes[i], func(x, y slot) int { return x.gpu - y.gpu })
		if want[i] < len(nodes[i]) {
			for _, s := range nodes[i][want[i]:] {
				given = append(given, s.borrowed)
			}
			nodes[i] = nodes[i][:want[i]]
		}
	}
	for i := range out {
		for _, g := range free[i][:max(want[i]-len(nodes[i]), 0)] {
			b := false
			if len(given) > 0 {
				b, given = given[0], given[1:]
			}
			nodes[i] = append(nodes[i], slot{g, b})
		}
		slices.SortFunc(nodes[i], func(x, y slot) int { return x.gpu - y.gpu })
		a := &out[i]
		a.GPUs, a.Borrowed = make([]int, len(nodes[i])), nil
		if marked {
			a.Borrowed = make([]bool, len(nodes[i]))
		}
		for k, s := range nodes[i] {
			a.GPUs[k] = s.gpu
			if marked {
				a.Borrowed[k] = s.borrowed
			}
		}
	}
}
