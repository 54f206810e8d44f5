package controller

import (
	"slices"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// cpuBoundNodes is the fewest nodes a pending job's CPUs fit on, as
// slurmctld counts them for its node count: the CPUs over the largest
// node of its partitions, rounded up, never more nodes than tasks (the
// peer, with 64-CPU nodes, shows -n65 as 2 nodes, -n10 -c10 as 2, -n129
// as 3, and -c70 alone as 1). 0 without -n above 1.
func (c *Controller) cpuBoundNodes(r *jobRecord, cpus int) int {
	q := r.Req
	if q.NTasks <= 1 || cpus <= 1 {
		return 0
	}
	largest := c.largestNodeCPUs(r.St.Partitions)
	if largest <= 0 || cpus <= largest {
		return 0
	}
	return min(q.NTasks, (cpus+largest-1)/largest)
}

// gpuBoundNodes is the fewest nodes a pending job's GPU total fits on, as
// slurmctld's test placement counts them: the GPUs over the most one node
// of its partitions has, rounded up (the peer, with 8-GPU nodes, shows
// --gpus=12 as 2 nodes, --gpus=20 as 3, -n4 --gpus-per-task=4 as 2). 0
// with -N, with GPUs per node, or for a job submitted held, which
// slurmctld has not tried to place (it shows held --gpus=16 as 1 node).
func (c *Controller) gpuBoundNodes(r *jobRecord) int {
	q := r.Req
	if q.NodesSet || q.MinNodes > 0 || q.NTasksPerNode > 0 && len(q.GPUsPerTask) > 0 || submittedHeld(r) {
		return 0
	}
	for _, list := range [][]resource.GRES{q.GPUsPerNode, q.GRES} {
		for _, g := range list {
			if g.Name == "gpu" {
				return 0
			}
		}
	}
	total := requestedGPUs(q, 0)
	largest := c.largestNode(r.St.Partitions, nodeGPUCount) // nodes.go
	if total <= 0 || largest <= 0 {
		return 0
	}
	return (total + largest - 1) / largest
}

// placedNodes is the node count slurmctld's submit-time test placement
// gives a pending job without -N or GPUs, which it shows until the job
// runs (node_cnt_wag; a job submitted held has none, heldSubmitNodes):
//   - a -N range or --spread-job: its top, no more than its tasks (the
//     peer shows -N1-3 -n2 as NumNodes=2-2, --spread-job -n4 as 4-4);
//   - otherwise the partition's nodes the job may use, fewest CPUs first,
//     until they hold its tasks, a node holding as many CPUs as its
//     memory allows at the job's memory per CPU (the peer, with 32-CPU
//     125G and 64-CPU 500G nodes: -n65 is 3 nodes, -n300 9, -n65
//     --mem-per-cpu=8G 5, -n65 -C gpu 2), though it may then start on
//     fewer, larger nodes.
//
// 0 when it does not apply: -w, -x, -C beyond a plain list, memory per
// node, --ntasks-per-node, -O, or tasks that fit one node.
func (c *Controller) placedNodes(r *jobRecord) int {
	q := r.Req
	if submittedHeld(r) || q.NTasksPerNode > 0 || q.Overcommit || q.UseMinNodes || len(r.St.Partitions) == 0 ||
		requestedGPUs(q, 1) > 0 {
		return 0
	}
	if q.MaxNodes > q.MinNodes && q.MinNodes > 0 {
		if q.NTasks == 0 {
			return q.MaxNodes // a task a node
		}
		return min(q.MaxNodes, max(q.NTasks, q.MinNodes))
	}
	if n := c.spreadMaxNodes(r); n > 0 { // task_layout.go
		return n
	}
	if q.NodesSet || q.MinNodes > 0 || q.NTasks <= 1 || q.NodeList != "" || q.Exclude != "" ||
		(q.Constraint != "" && q.Features == nil) || q.MemPerNode != nil {
		return 0
	}
	cs := c.confNow()
	p, ok := cs.parts[r.St.Partitions[0]]
	if !ok {
		return 0
	}
	perCPU := c.defaultMemPerCPU(r)
	if q.MemPerCPU != nil {
		perCPU = *q.MemPerCPU
	}
	cpt := taskCPUs(q)
	type room struct{ cpus, tasks int }
	var rooms []room
	for _, name := range p.Nodes {
		nc, ok := cs.conf.Node(name)
		if !ok || !hasFeatures(nc, q.Features) {
			continue
		}
		cpus := nc.EffectiveCPUs()
		if perCPU > 0 {
			cpus = min(cpus, int(nc.UsableMemory()/perCPU))
		}
		if t := cpus / cpt; t > 0 {
			rooms = append(rooms, room{nc.EffectiveCPUs(), t})
		}
	}
	slices.SortStableFunc(rooms, func(a, b room) int { return a.cpus - b.cpus })
	left := q.NTasks
	for i, rm := range rooms {
		if left -= rm.tasks; left <= 0 {
			if i == 0 {
				return 0 // one node holds them
			}
			return i + 1
		}
	}
	return 0
}

// submittedHeld reports whether r was submitted held and is held still.
func submittedHeld(r *jobRecord) bool {
	return r.Req.Hold && (r.St.Hold == HeldUser || r.St.Hold == HeldAdmin)
}

// largestNodeCPUs is the CPU count of the largest node in the partitions.
func (c *Controller) largestNodeCPUs(parts []string) int {
	return c.largestNode(parts, func(nc *slurmconf.Node) int { return nc.CPUs })
}

// largestNodeCores is the core count of the node with the most cores in
// the partitions (sockets x cores per socket).
func (c *Controller) largestNodeCores(parts []string) int {
	return c.largestNode(parts, func(nc *slurmconf.Node) int { return max(nc.Sockets, 1) * max(nc.CoresPerSocket, 1) })
}

// largestNode is the most size gives for a node of the partitions.
func (c *Controller) largestNode(parts []string, size func(*slurmconf.Node) int) int {
	cs := c.confNow()
	largest := 0
	for _, name := range parts {
		p, ok := cs.parts[name]
		if !ok {
			continue
		}
		for _, n := range p.Nodes {
			if nc, ok := cs.conf.Node(n); ok {
				largest = max(largest, size(nc))
			}
		}
	}
	return largest
}

// heldSubmitNodes is the node count slurmctld shows for a job submitted
// held with -c above 1 and no --ntasks-per-node, which it has never tried
// to place (a job it tried shows the nodes its test chose, which
// cpuBoundNodes stands for): the tasks over the tasks a node of the
// largest size holds, at least -N's minimum, and one node more when they
// do not divide evenly, even if they fit one node. So the peer, with
// 64-CPU nodes, shows held -n1 -c2 and -n8 -c2 jobs as 2 nodes, -n1 -c33
// and -n2 -c32 as 1, and -c2 without -n as 1 (pack_job's guess for
// cpus_per_task, kept as Slurm 22.05 prints it). 0 when it does not apply.
//
// With --ntasks-per-core (and no -c) it is the cores the tasks need over
// the cores of the largest node: held -n70 --ntasks-per-core=2 on the
// peer's 64-core nodes is 1 node, where its 70 CPUs alone would make 2.
func (c *Controller) heldSubmitNodes(r *jobRecord) int {
	q := r.Req
	if !submittedHeld(r) || q.NTasksPerNode > 0 {
		return 0
	}
	part := r.St.Partitions[:min(1, len(r.St.Partitions))]
	switch {
	case q.CPUsPerTask > 1:
		largest := c.largestNodeCPUs(part)
		if largest <= 0 {
			return 0
		}
		perNode := max(largest/q.CPUsPerTask, 1)
		n := max(q.NTasks/perNode, q.MinNodes, 1)
		if q.NTasks%perNode != 0 {
			n++
		}
		return n
	case q.NTasksPerCore > 0 && q.NTasksPerCore != job.NTasksPerCoreAny:
		cores := c.largestNodeCores(part)
		if cores <= 0 {
			return 0
		}
		need := (q.NTasks + q.NTasksPerCore - 1) / q.NTasksPerCore
		return max((need+cores-1)/cores, q.MinNodes, 1)
	}
	return 0
}
