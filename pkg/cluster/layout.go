package cluster

import (
	"slices"

	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/sched"
)

// settle puts a start's nodes in Slurm's node order (host names, as the
// peer's node table sorts them: cpu001 before gpu001) and lays the job's
// CPUs over them as Slurm's cons_tres does, whichever nodes the scheduler
// gave which share: every node keeps one task's CPUs and the rest fills
// the nodes one by one in that order, each up to what it has free (see
// fillCPUs). GPU jobs with the same GPUs on every node (--gres=gpu:N,
// --gpus-per-node) fill the same way: the peer runs -N2 -n4 --gres=gpu:2
// as 3,1. --gpus and --gpus-per-task jobs fill their GPUs too
// (settleGPUs); when the nodes cannot take that, the scheduler's even
// shares stay and only the largest CPU share moves to the first node,
// when it has room. Exclusive jobs hold whole nodes and stay as they
// are, except for memory (exclusiveMem).
func (c *Cluster) settle(spec *JobSpec, alloc []sched.NodeAlloc, later map[string]nodeUse) []sched.NodeAlloc {
	out := cloneAlloc(alloc)
	slices.SortStableFunc(out, func(a, b sched.NodeAlloc) int { return hostlist.Compare(a.Node, b.Node) })
	if spec.Shape.Exclusive {
		exclusiveMem(spec, out)
		return out
	}
	if len(out) < 2 {
		return out
	}
	if gpuJob(spec, out) && spec.Shape.GPUsPerNode == 0 {
		if !c.settleGPUs(spec, out, later) { // layout_gpu.go
			c.restFirst(spec, out, later)
		}
		return out
	}
	if spec.Shape.CPUs > 0 {
		c.fillCPUs(spec, out, later)
	}
	return out
}

// exclusiveMem sets the memory of an exclusive job to what it asks, in
// place: the node's CPUs are all the job's, its memory only as much as
// asked per node (--mem) or per CPU (DefMemPerCPU included). The peer's
// --exclusive -N2 on 32-CPU nodes with DefMemPerCPU=1024 holds Mem=32768
// a node, with --mem=1000 Mem=1000, not the node's RealMemory; with
// --mem=0 (MemPerNode stays 0 then, see ShapeOf) all of it.
func exclusiveMem(spec *JobSpec, out []sched.NodeAlloc) {
	sh := &spec.Shape
	for i := range out {
		switch {
		case sh.MemPerNode > 0:
			out[i].MemMB = min(out[i].MemMB, sh.MemPerNode)
		case sh.MemPerCPU > 0:
			out[i].MemMB = min(out[i].MemMB, int64(out[i].CPUs)*sh.MemPerCPU)
		}
	}
}

func gpuJob(spec *JobSpec, alloc []sched.NodeAlloc) bool {
	if spec.Shape.GPUs > 0 || spec.Shape.GPUsPerNode > 0 {
		return true
	}
	return slices.ContainsFunc(alloc, func(a sched.NodeAlloc) bool { return len(a.GPUs) > 0 })
}

// fillCPUs lays out a CPU job's CPUs node by node, in place: one task's
// CPUs on every node, then the rest in whole tasks on the first node as
// far as its free CPUs (and memory, when memory is per CPU) go, then on
// the second, and so on. So the peer runs -N2 -n4 as 3,1, -N3 -n70 on
// idle 32-CPU nodes as 32(x2),6, -N4 -n140 on 64-CPU nodes as
// 64(x2),11,1, and -N3 -n100 whose middle node has 14 CPUs free as
// 64,14,22: name order, neither the freest nor the busiest node first.
// Free means beyond what is used and what later starts of the same plan
// take there. When the nodes cannot hold the layout (they always can
// hold the scheduler's shares, which fit), those shares stay.
func (c *Cluster) fillCPUs(spec *JobSpec, out []sched.NodeAlloc, later map[string]nodeUse) {
	tasks, unit, free, ok := c.taskRoom(spec, out, later)
	if !ok {
		return
	}
	order := listedFirst(spec, out)
	cpus, ok := spill(tasks, permute(free, order))
	if !ok {
		return
	}
	cpus = unpermute(cpus, order)
	perCPU := memPerCPU(spec)
	for i := range out {
		out[i].CPUs = cpus[i] * unit
		if perCPU > 0 {
			out[i].MemMB = int64(out[i].CPUs) * perCPU
		}
	}
}

// listedFirst is the order fillCPUs fills a job's nodes in: the nodes
// named with -w first, then the others, each part in node order. Slurm
// takes the listed nodes' CPUs before it adds nodes: the peer runs -w
// gpu032 -n70 on 64-CPU nodes as gpu031 6, gpu032 64.
func listedFirst(spec *JobSpec, out []sched.NodeAlloc) []int {
	order := make([]int, 0, len(out))
	for pass := range 2 {
		for i, a := range out {
			if slices.Contains(spec.Shape.NodeList, a.Node) == (pass == 0) {
				order = append(order, i)
			}
		}
	}
	return order
}

// permute is vals in order; unpermute undoes it.
func permute(vals, order []int) []int {
	out := make([]int, len(order))
	for k, i := range order {
		out[k] = vals[i]
	}
	return out
}

func unpermute(vals, order []int) []int {
	out := make([]int, len(order))
	for k, i := range order {
		out[i] = vals[k]
	}
	return out
}

// taskRoom is a job's CPUs over its nodes as tasks of unit CPUs (a
// node's --ntasks-per-node share when the total divides, else single
// CPUs): how many there are, and how many each node has free.
func (c *Cluster) taskRoom(spec *JobSpec, out []sched.NodeAlloc, later map[string]nodeUse) (tasks, unit int, free []int, ok bool) {
	total := 0
	for _, a := range out {
		total += a.CPUs
	}
	unit = max(spec.Shape.CPUsPerNode, 1)
	if total%unit != 0 {
		unit = 1
	}
	perCPU := memPerCPU(spec)
	free = make([]int, len(out))
	for i, a := range out {
		if free[i], ok = c.freeTasks(a.Node, unit, perCPU, later); !ok {
			return 0, 0, nil, false
		}
	}
	return total / unit, unit, free, true
}

// memPerCPU is the memory each of spec's CPUs brings (--mem-per-cpu or
// DefMemPerCPU); 0 when memory is asked per node.
func memPerCPU(spec *JobSpec) int64 {
	if spec.Shape.MemPerNode != 0 {
		return 0
	}
	return max(spec.Shape.MemPerCPU, 0)
}

// spill deals tasks over nodes that can hold free[i] tasks each: one task
// per node, then the rest node by node in order, each filled to its free
// count. It reports false when the tasks do not fit or some node cannot
// hold its one task.
func spill(tasks int, free []int) ([]int, bool) {
	if tasks < len(free) {
		return nil, false
	}
	out := make([]int, len(free))
	rest := tasks - len(free)
	for i, f := range free {
		if f < 1 {
			return nil, false
		}
		add := min(f-1, rest)
		out[i] = 1 + add
		rest -= add
	}
	return out, rest == 0
}

// freeTasks counts the whole tasks of unit CPUs (and perCPU MB of memory
// per CPU, when not 0) that node has free besides later's use.
func (c *Cluster) freeTasks(node string, unit int, perCPU int64, later map[string]nodeUse) (int, bool) {
	i, ok := c.nodeIdx[node]
	if !ok {
		return 0, false
	}
	n, u, l := c.nodes[i], c.used[i], later[node]
	cpus := n.CPUs - u.cpus - l.cpus
	if perCPU > 0 {
		cpus = min(cpus, int((n.MemMB-u.mem-l.mem)/perCPU))
	}
	return cpus / unit, true
}

// restFirst moves the largest CPU share to the first node, in place, when
// the first node has room for it beyond what is used and what later
// starts of the same plan take there. Memory follows the CPUs when it is
// asked per CPU. GPUs never move.
func (c *Cluster) restFirst(spec *JobSpec, out []sched.NodeAlloc, later map[string]nodeUse) {
	k := 0
	for i := range out {
		if out[i].CPUs > out[k].CPUs {
			k = i
		}
	}
	if k == 0 {
		return
	}
	first, big := &out[0], &out[k]
	moveMem := spec.Shape.MemPerCPU > 0 && spec.Shape.MemPerNode == 0
	dc, dm := big.CPUs-first.CPUs, int64(0)
	if moveMem {
		dm = big.MemMB - first.MemMB
	}
	i, ok := c.nodeIdx[first.Node]
	if !ok {
		return
	}
	n, u, l := c.nodes[i], c.used[i], later[first.Node]
	if u.cpus+l.cpus+first.CPUs+dc > n.CPUs || u.mem+l.mem+first.MemMB+dm > n.MemMB {
		return
	}
	first.CPUs, big.CPUs = big.CPUs, first.CPUs
	if moveMem {
		first.MemMB, big.MemMB = big.MemMB, first.MemMB
	}
}

// planUse sums the CPUs and memory the plan's starts take per node.
func planUse(starts []sched.Start) map[string]nodeUse {
	out := map[string]nodeUse{}
	for _, st := range starts {
		addUse(out, st.Alloc, 1)
	}
	return out
}

// addUse adds (sign 1) or removes (sign -1) alloc's CPUs, memory and
// GPUs (marked by index: starts of one plan never share a GPU).
func addUse(m map[string]nodeUse, alloc []sched.NodeAlloc, sign int) {
	for _, a := range alloc {
		u := m[a.Node]
		u.cpus += sign * a.CPUs
		u.mem += int64(sign) * a.MemMB
		for _, g := range a.GPUs {
			if g >= len(u.gpus) {
				u.gpus = append(u.gpus, make([]bool, g+1-len(u.gpus))...)
			}
			u.gpus[g] = sign > 0
		}
		m[a.Node] = u
	}
}
