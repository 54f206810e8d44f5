package controller

import (
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/cluster"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// demand is what a job asks of one partition, from the scheduler's own
// reading of the request (cluster.ShapeOf): totals over the job and the
// least each of its nodes must offer.
type demand struct {
	nodes int // exact or least node count; 0: the scheduler chooses
	// mostNodes is the top of a -N min-max range (0: none): the tasks
	// may spread over that many, so each node's share is the least.
	mostNodes int
	// taskNodes is -n (given, or from --ntasks-per-node) without -N: a
	// node holds at least one task, so no more nodes than that (0: no
	// such bound).
	taskNodes int
	cpus      int64
	gpus      int64
	memMB     int64
	perCPUs   int // on each node
	perGPUs   int
	perMemMB  int64
	// exclMemPerCPU is --mem-per-cpu of an --exclusive job: it holds every
	// CPU of a node and that much memory for each.
	exclMemPerCPU int64
	gpuType       string
	features      []string
	exclude       []string
	include       []string
	// contiguous is --contiguous: the nodes are consecutive in node
	// table order (admission_contiguous.go).
	contiguous bool
	// shareCPUs and unevenTasks are slurmctld's rule for tasks that
	// make their GPUs (admission_gpu_tasks.go): each node holds its equal
	// share of the tasks' CPUs, and a fixed -N divides the tasks.
	shareCPUs   int
	unevenTasks bool
}

// get returns one TRES of the job's totals, as tenants.conf names them.
func (d demand) get(k string) int64 {
	switch k {
	case "gres/gpu":
		return d.gpus
	case "cpu":
		return d.cpus
	case "mem":
		return d.memMB
	}
	return int64(max(d.nodes, 1))
}

// demandOf reads a's request as partition p's scheduler would.
func demandOf(cs *confState, a *admitted, p *slurmconf.Partition) (demand, error) {
	s, err := cluster.ShapeOf(a.req, cs.conf, p)
	if err != nil {
		return demand{}, err
	}
	if s.Preferred != nil {
		s = *s.Preferred // slurmctld tests a new job with --prefer in place of -C (prefer.go)
	}
	d := demand{nodes: s.Nodes, gpuType: strings.ToLower(s.GPUType), features: s.Features, exclude: s.Exclude, include: s.NodeList}
	d.contiguous = s.Contiguous
	d.shareCPUs, d.unevenTasks = taskShare(a.req)
	if s.Nodes > 0 && s.MaxNodes > s.Nodes {
		d.mostNodes = s.MaxNodes
	}
	if q := a.req; s.Nodes == 0 && q.NTasks > 0 && !q.Overcommit {
		d.taskNodes = q.NTasks
	}
	// A job's totals are on its least nodes; its tasks' and GPUs' shares
	// spread over the most it may take (-N2-50 --gpus-per-node=8 needs
	// 16 GPUs, on a partition of any size above 2 nodes).
	least, n := max(s.Nodes, 1), max(s.Nodes, d.mostNodes, 1)
	d.cpus, d.perCPUs = int64(s.CPUs), max(s.CPUsPerNode, 1)
	if s.CPUsPerNode > 0 && s.CPUs == 0 {
		d.cpus = int64(s.CPUsPerNode * least)
	} else if s.Nodes > 0 { // CPUsPerNode with CPUs is one task's share
		d.perCPUs = max((s.CPUs+n-1)/n, 1)
	}
	d.cpus = max(d.cpus, int64(least))
	d.gpus, d.perGPUs = int64(s.GPUs), s.GPUsPerNode
	if s.GPUsPerNode > 0 {
		d.gpus = int64(s.GPUsPerNode * least)
	} else if s.Nodes > 0 {
		d.perGPUs = (s.GPUs + n - 1) / n
	}
	switch {
	case s.MemPerNode > 0:
		d.memMB, d.perMemMB = s.MemPerNode*int64(least), s.MemPerNode
	case s.MemPerCPU > 0:
		d.memMB, d.perMemMB = s.MemPerCPU*d.cpus, s.MemPerCPU*int64(d.perCPUs)
	case s.MemPerGPU > 0:
		d.memMB, d.perMemMB = s.MemPerGPU*d.gpus, s.MemPerGPU*int64(d.perGPUs)
	}
	if s.Exclusive && s.MemPerCPU > 0 {
		d.exclMemPerCPU = s.MemPerCPU
	}
	return d, nil
}

// nodeCap is what one configured node offers.
type nodeCap struct {
	conf    *slurmconf.Node
	name    string
	cpus    int
	gpus    int
	gpuType string
	memMB   int64
}

func capOfNode(n *slurmconf.Node) nodeCap {
	c := nodeCap{conf: n, name: n.Name, cpus: n.EffectiveCPUs(), memMB: n.UsableMemory()} // corespec.go
	for _, g := range n.GRES {
		if g.Name == "gpu" {
			c.gpus += int(g.Count)
			if c.gpuType == "" {
				c.gpuType = strings.ToLower(g.Type)
			}
		}
	}
	return c
}

// eligible returns the partition's nodes (not FUTURE) that could hold one
// node's share of d. It reads the capacities computed with the
// configuration (partCaps) and returns that slice itself while every node
// passes, which is the usual case: a submission to thousands of nodes
// then allocates nothing here.
func eligible(cs *confState, p *slurmconf.Partition, d demand) []nodeCap {
	all := cs.partCaps[p]
	if all == nil { // a partition from outside cs: compute
		all = partCaps(cs.conf, p)
	}
	var out []nodeCap
	for i, c := range all {
		ok := !slices.Contains(d.exclude, c.name) && hasFeatures(c.conf, d.features) &&
			(d.gpuType == "" || c.gpuType == d.gpuType) &&
			c.cpus >= max(d.perCPUs, d.shareCPUs) && c.gpus >= d.perGPUs && c.memMB >= max(d.perMemMB, int64(c.cpus)*d.exclMemPerCPU)
		switch {
		case !ok && out == nil:
			out = append(make([]nodeCap, 0, len(all)), all[:i]...)
		case ok && out != nil:
			out = append(out, c)
		}
	}
	if out == nil {
		return all
	}
	return out
}

// partCaps are the capacities of p's nodes that are not FUTURE, in the
// partition's order.
func partCaps(conf *slurmconf.Config, p *slurmconf.Partition) []nodeCap {
	out := make([]nodeCap, 0, len(p.Nodes))
	for _, name := range p.Nodes {
		if nc, ok := conf.Node(name); ok && nc.State != "FUTURE" {
			out = append(out, capOfNode(nc))
		}
	}
	return out
}

func hasFeatures(n *slurmconf.Node, want []string) bool {
	for _, f := range want {
		if !slices.Contains(n.Features, f) {
			return false
		}
	}
	return true
}

// checkCapacity refuses a job no candidate partition could ever hold,
// even empty: more nodes than the partition has or its MaxNodes allows,
// more CPUs or GPUs than its eligible nodes have together (Slurm pends
// these forever as PartitionNodeLimit or PartitionConfig).
func checkCapacity(cs *confState, a *admitted) *api.Error {
	return narrow(a, func(p *slurmconf.Partition) *api.Error {
		d, err := demandOf(cs, a, p)
		if err != nil {
			return api.Errorf(api.CodeInvalidFeature, "%v", err)
		}
		if d.unevenTasks {
			return api.NewError(api.CodeNodeConfigUnavailable)
		}
		if q := a.req; q.MaxNodes > 0 && d.nodes > q.MaxNodes {
			// -N1 -n4 --ntasks-per-node=2: the tasks need more nodes
			// than -N allows; the peer refuses with its one line.
			return api.NewError(api.CodeNodeConfigUnavailable)
		}
		return fitsPartition(cs, p, d)
	}, cs)
}

// fitsPartition is checkCapacity for one partition.
func fitsPartition(cs *confState, p *slurmconf.Partition, d demand) *api.Error {
	if p.MaxNodes != slurmconf.Unlimited && p.MaxNodes > 0 && int64(d.nodes) > p.MaxNodes {
		return api.Errorf(api.CodeInvalidNodeCount, "%d nodes requested: partition %s allows at most MaxNodes=%d", d.nodes, p.Name, p.MaxNodes)
	}
	if d.nodes > 0 && int64(d.nodes) < p.MinNodes {
		return api.Errorf(api.CodeInvalidNodeCount, "%d nodes requested: partition %s needs at least MinNodes=%d", d.nodes, p.Name, p.MinNodes)
	}
	for _, n := range d.include {
		if !slices.Contains(p.Nodes, n) {
			return api.Errorf(api.CodeNodesNotInPartition, "node %s is not in partition %s", n, p.Name)
		}
	}
	nodes := eligible(cs, p, d)
	if len(nodes) == 0 {
		// A GPU type or per-node GPU share (from --gpus over -N) no node
		// has: Slurm refuses it at submit with its one line, no detail.
		return api.NewError(api.CodeNodeConfigUnavailable)
	}
	if d.nodes > len(nodes) {
		// More nodes than the partition has pend in Slurm
		// (PartitionNodeLimit), refused here (R1); a count within the
		// partition that its features, GPUs or memory narrow below
		// is refused by slurmctld too, as an unavailable configuration.
		code := api.CodeInvalidNodeCount
		if d.nodes <= len(p.Nodes) {
			code = api.CodeNodeConfigUnavailable
		}
		return api.Errorf(code, "%d nodes requested: partition %s has %d nodes that can hold the job's share", d.nodes, p.Name, len(nodes))
	}
	if d.contiguous && longestRun(cs.conf, nodes) < d.nodes { // admission_contiguous.go
		return api.NewError(api.CodeNodeConfigUnavailable)
	}
	k := len(nodes)
	if d.nodes > 0 {
		k = max(d.nodes, d.mostNodes)
	}
	cpus := topSum(nodes, k, func(n nodeCap) int64 { return int64(n.cpus) })
	gpus := topSum(nodes, k, func(n nodeCap) int64 { return int64(n.gpus) })
	if d.cpus > cpus {
		return api.Errorf(api.CodeTooManyCPUs, "%d CPUs requested: partition %s has %d CPUs on the nodes that can hold the job", d.cpus, p.Name, cpus)
	}
	if d.gpus > gpus {
		return api.Errorf(api.CodeNodeConfigUnavailable, "%d GPUs requested: partition %s has %d GPUs on the nodes that can hold the job", d.gpus, p.Name, gpus)
	}
	if d.taskNodes > 0 && d.taskNodes < k && d.gpus > topSum(nodes, d.taskNodes, func(n nodeCap) int64 { return int64(n.gpus) }) {
		// -n1 --gpus=16 on 8-GPU nodes: Slurm refuses with its one line.
		return api.NewError(api.CodeNodeConfigUnavailable)
	}
	return nil
}

// topSum is the most k of the nodes can offer of one resource: any
// placement on k nodes has at most that much.
func topSum(nodes []nodeCap, k int, of func(nodeCap) int64) int64 {
	if k >= len(nodes) { // all of them (no -N): no need to sort
		var sum int64
		for _, n := range nodes {
			sum += of(n)
		}
		return sum
	}
	vals := make([]int64, len(nodes))
	for i, n := range nodes {
		vals[i] = of(n)
	}
	slices.Sort(vals)
	var sum int64
	for _, v := range vals[len(vals)-k:] {
		sum += v
	}
	return sum
}
