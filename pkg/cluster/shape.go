package cluster

import (
	"fmt"
	"time"

	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// ShapeOf normalizes a submission into what it asks of the nodes of
// partition part (nil: the cluster's defaults), following Slurm 22.05 as
// the peer cluster shows it (scontrol show job of running jobs):
//
//   - nodes: -N's minimum (-w raises it to the host count in the client;
//     -n over --ntasks-per-node raises it here), and its maximum (capped
//     at the tasks, RangeNodes) to try first;
//     with --ntasks-per-node and -n, ceil(n / per-node), unless --gpus
//     decides; --ntasks-per-node or --gpus-per-node alone mean one node;
//     otherwise 0 (the scheduler takes the fewest nodes that hold the
//     job: -n70 lands on 3 nodes, --gpus=16 --ntasks-per-node=8 on 2);
//   - CPUs: at least --mincpus a node; with -O one task's CPUs a node;
//     else tasks x CPUs per task, per node with --ntasks-per-node, one
//     task per node with -N alone (-N3 holds 3 CPUs); with -n and more
//     than one CPU per task, CPUsPerNode is one task's CPUs as well (the
//     least share of a node: -N2 -n4 -c2 gets 6,2); --gpus-per-task with
//     --cpus-per-gpu makes CPUs per task = GPUs per task x CPUs per GPU;
//     --cpus-per-gpu alone raises the CPUs to GPUs x CPUs per GPU;
//   - GPUs: --gpus-per-node or --gres=gpu:N per node; --gpus-per-task per
//     node with --ntasks-per-node, else times the tasks; --gpus for the
//     whole job; the first GPU type named is required;
//   - memory: --mem per node (--mem=0: each node's own memory, whole),
//     --mem-per-cpu, --mem-per-gpu, else the partition's
//     DefMemPerGPU for GPU jobs, else DefMemPerCPU, else none (Slurm would
//     give the whole node; sites set DefMemPerCPU, as the peer does);
//   - --exclusive or OverSubscribe=EXCLUSIVE: whole nodes; -w, -x host
//     lists; -C as a plain AND list of features, or parsed (OR, matching
//     OR, counts, parentheses), its counts raising the node count;
//   - --prefer: the same shape with it in place of -C, as Preferred.
func ShapeOf(req *job.Request, cfg *slurmconf.Config, part *slurmconf.Partition) (sched.Shape, error) {
	var s sched.Shape
	gpt := gpuCount(req.GPUsPerTask)
	cpt := max(req.CPUsPerTask, 1)
	if gpt > 0 && req.CPUsPerGPU > 0 {
		cpt = gpt * req.CPUsPerGPU
	}
	gpn := gpuCount(req.GPUsPerNode)
	if gpn == 0 {
		gpn = gpuCount(gresGPUs(req.GRES))
	}
	s.Nodes = nodeCount(req, gpn)
	if err := shapeConstraint(&s, req); err != nil { // constraint.go: counts raise the node count
		return sched.Shape{}, err
	}
	if n := gpuNodesForTasks(req, cfg, part, gpn, cpt); n > s.Nodes {
		s.Nodes = n
	}
	if most := RangeNodes(req); most > s.Nodes {
		s.MaxNodes = most
	}
	shapeCPUs(&s, req, cpt)
	shapeGPUs(&s, req, gpn, gpt)
	if n := max(s.Nodes, 1); req.NTasksPerGPU > 0 && s.GPUsPerNode > 0 && req.NTasksPerNode == 0 && !req.Overcommit &&
		req.NTasks == req.NTasksPerGPU*s.GPUsPerNode*n {
		// sbatch's tasks for --ntasks-per-gpu: each node runs its GPUs'
		// (the peer lays -N2 --gpus-per-node=8 --ntasks-per-gpu=1 out
		// 8(x2), where -N2 -n16 alone is 15,1), and at least its GPUs'
		// --cpus-per-gpu (--gpus-per-node=2 --cpus-per-gpu=4
		// --ntasks-per-gpu=1 holds 8 CPUs a node, not 2).
		s.CPUs, s.CPUsPerNode = 0, max(req.NTasksPerGPU*s.GPUsPerNode*cpt, s.GPUsPerNode*req.CPUsPerGPU)
	}
	if req.NTasksPerGPU > 0 && s.GPUsPerNode == 0 && req.NTasksPerNode == 0 && !req.Overcommit && s.Nodes > 1 && req.NTasks > 0 {
		// With -N, slurmctld gives each node an equal share of the tasks
		// (_select_cores for --ntasks-per-gpu): the peer runs -N3
		// --ntasks-per-gpu=3 as 3(x3) on a GPU each, -N2 -n6
		// --ntasks-per-gpu=2 as 3(x2) on GPUs 2,1.
		s.CPUs, s.CPUsPerNode = 0, (req.NTasks+s.Nodes-1)/s.Nodes*cpt
	}
	if req.NTasks > 0 && req.NTasksPerNode == 0 && cpt > 1 && s.CPUsPerNode == 0 && s.CPUs == req.NTasks*cpt {
		s.CPUsPerNode = cpt // the least share of a node: one task
	}
	if req.NumCPUs > 0 {
		// scontrol update NumCPUs= (or MinCPUsNode=): Slurm allocates
		// that many CPUs, whatever the tasks need, at least one a node.
		s.CPUs, s.CPUsPerNode = max(req.NumCPUs, s.Nodes), 0
	}
	minCPUs(&s, req)
	s.GPUType = gpuType(req)
	s.Exclusive = req.Exclusive == job.ExclusiveNodes || (part != nil && part.OverSubscribe == "EXCLUSIVE")
	s.ExclusiveUser = req.Exclusive == job.ExclusiveUser && !s.Exclusive // sched/userexcl.go
	shapeMemory(&s, req, cfg, part)
	s.LimitMem = limitMemory(&s, req, cpt, cfg, part) // memlimits.go
	var err error
	if s.NodeList, err = expandHosts(req.NodeList, "-w"); err != nil {
		return sched.Shape{}, err
	}
	if s.Exclude, err = expandHosts(req.Exclude, "-x"); err != nil {
		return sched.Shape{}, err
	}
	s.TmpDiskMB = req.TmpDisk
	s.Contiguous = req.Contiguous
	if req.Switches > 0 {
		s.Switches = req.Switches
		s.SwitchWait = SwitchWait(req, cfg)
	}
	s.Preferred = preferredShape(req, cfg, part) // constraint.go
	return s, nil
}

// RangeNodes is the most nodes the scheduler may spread a job's tasks
// over beyond its node count: the top of -N min-max (-N1-2 -n2: two nodes
// when free), unless -O or --use-min-nodes fix the count, listedNodes for
// -w without -N, or spreadNodes for --spread-job. With --ntasks-per-node
// and no -n, slurmctld counts the tasks as that many on each of -N's
// least nodes and gives a job no more nodes than tasks: the peer runs
// -N3-4 --ntasks-per-node=2 on 4 nodes, 8 tasks, and -N2-4
// --ntasks-per-node=1 on 2. 0: no range.
func RangeNodes(req *job.Request) int {
	most := 0
	switch {
	case req.Overcommit || req.UseMinNodes:
	case req.NTasksPerNode == 0:
		most = max(req.MaxNodes, listedNodes(req))
	case req.NTasks > 0:
		most = req.MaxNodes // sbatch capped it at -n
	default:
		most = min(req.MaxNodes, req.NTasksPerNode*max(req.MinNodes, 1))
	}
	return max(most, spreadNodes(req))
}

// TasksPerNode is --ntasks-per-node as it counts for the CPUs a node
// holds: never more than -n (the peer runs -n1 --ntasks-per-node=2 on one
// CPU, shown MinCPUsNode=1).
func TasksPerNode(req *job.Request) int {
	if req.NTasks > 0 && req.NTasksPerNode > req.NTasks {
		return req.NTasks
	}
	return req.NTasksPerNode
}

// listedNodes is the most nodes a job given -w and no -N may take. sbatch
// makes the listed hosts the least node count and sets no most, so the
// job takes more nodes when its tasks or GPUs need them, as sbatch's man
// page says of -w (the peer runs -w gpu032 -n100 on 2 nodes of 64 CPUs and
// -w gpu032 --gpus=12 on 2 nodes of 8 GPUs): no more than a task a node,
// or a GPU a node without -n. 0 for any other job.
func listedNodes(req *job.Request) int {
	if req.NodeList == "" || !req.NodesSet || req.MaxNodes != 0 {
		return 0
	}
	if req.NTasks > 0 {
		return req.NTasks
	}
	return gpuCount(req.GPUs)
}

// spreadNodes is the most nodes --spread-job asks for: a task a node
// (the peer runs -n4 --spread-job on 4 nodes, 1(x4), and -n100 on all 40
// of its nodes; the scheduler caps the count at the partition's nodes and
// falls back to fewer when not that many are free). With -N the node
// count stands (-N2 -n4 --spread-job shows NumNodes=2-2), and with
// --ntasks-per-node the nodes follow the tasks already. 0 otherwise.
func spreadNodes(req *job.Request) int {
	if !req.SpreadJob || req.NodesSet || req.MinNodes > 0 || req.NTasksPerNode > 0 || req.Overcommit || req.NTasks < 2 {
		return 0
	}
	return req.NTasks
}

// gpuNodesForTasks is the node count of GPUs a node without -N when the
// tasks' CPUs need more than one node: as many of the partition's largest
// nodes with that many GPUs as hold them, no more than the tasks (the
// peer runs -n70 --gpus-per-node=2 on two 64-CPU nodes, -n200
// --gpus-per-node=1 on four, where Loam's one node refused them). 0 when
// it does not apply.
func gpuNodesForTasks(req *job.Request, cfg *slurmconf.Config, part *slurmconf.Partition, gpn, cpt int) int {
	if req.NodesSet || req.MinNodes > 0 || gpn <= 0 || req.NTasks <= 0 || req.NTasksPerNode > 0 || req.Overcommit || cfg == nil {
		return 0
	}
	var in map[string]bool
	if part != nil {
		in = make(map[string]bool, len(part.Nodes))
		for _, n := range part.Nodes {
			in[n] = true
		}
	}
	largest := 0
	for i := range cfg.Nodes {
		n := &cfg.Nodes[i]
		if in != nil && !in[n.Name] {
			continue
		}
		gpus := 0
		for _, g := range n.GRES {
			if g.Name == "gpu" {
				gpus += int(g.Count)
			}
		}
		if gpus >= gpn {
			largest = max(largest, n.EffectiveCPUs())
		}
	}
	cpus := req.NTasks * cpt
	if largest <= 0 || cpus <= largest {
		return 0
	}
	return min(req.NTasks, (cpus+largest-1)/largest)
}

func nodeCount(req *job.Request, gpn int) int {
	switch {
	case (req.NodesSet || req.MinNodes > 0) && req.NTasksPerNode > 0 && req.NTasks > 0 && !req.Overcommit:
		// Enough nodes for -n at --ntasks-per-node each: the peer runs
		// -N1-4 -n4 --ntasks-per-node=2 on at least 2 (and refuses -N1).
		tpn := TasksPerNode(req)
		return max(req.MinNodes, (req.NTasks+tpn-1)/tpn)
	case req.NodesSet || req.MinNodes > 0:
		return req.MinNodes
	case req.NTasksPerNode > 0 && gpuCount(req.GPUs) > 0:
		// --gpus with --ntasks-per-node: as many nodes as the GPUs need,
		// each with its tasks (the peer runs --gpus=16
		// --ntasks-per-node=8 on two 8-GPU nodes, 16 tasks).
		return 0
	case req.NTasksPerNode > 0 && req.NTasks > 0:
		return (req.NTasks + req.NTasksPerNode - 1) / req.NTasksPerNode
	case req.NTasksPerNode > 0 || gpn > 0:
		return 1
	}
	return 0
}

func shapeCPUs(s *sched.Shape, req *job.Request, cpt int) {
	switch {
	case req.Overcommit:
		s.CPUsPerNode = cpt // tasks share: -O -n2 holds 1 CPU, -O -N2 -n8 one a node
	case req.NTasksPerNode > 0:
		s.CPUsPerNode = TasksPerNode(req) * cpt
	case req.NTasks > 0:
		s.CPUs = req.NTasks * cpt
	default:
		// A task a node, whatever count of nodes the scheduler chooses:
		// the peer runs --gpus=16 -c8 on two nodes of 8 CPUs each.
		s.CPUsPerNode = cpt
	}
}

// minCPUs raises the CPUs to --mincpus on every node (the peer:
// --mincpus=4 -n1 holds 4 CPUs, --mincpus=4 -N2 holds 4 on each node,
// --mincpus=3 -n2 -c2 keeps its 4).
func minCPUs(s *sched.Shape, req *job.Request) {
	if req.MinCPUs <= 0 {
		return
	}
	if s.CPUs == 0 {
		s.CPUsPerNode = max(s.CPUsPerNode, req.MinCPUs)
		return
	}
	s.CPUs = max(s.CPUs, req.MinCPUs*max(s.Nodes, 1))
}

func shapeGPUs(s *sched.Shape, req *job.Request, gpn, gpt int) {
	switch {
	case gpn > 0:
		s.GPUsPerNode = gpn
	case gpt > 0 && req.NTasksPerNode > 0:
		s.GPUsPerNode = gpt * req.NTasksPerNode
	case gpt > 0:
		// --gpus is the job's total still: srun -G4 --gpus-per-task=1
		// holds 4 GPUs for its one task, as the peer allocates them.
		s.GPUs = max(gpt*max(req.NTasks, 1), gpuCount(req.GPUs))
	default:
		s.GPUs = gpuCount(req.GPUs)
	}
	cpg := req.CPUsPerGPU
	if cpg <= 0 || gpt > 0 || req.Overcommit {
		return // -O holds a CPU a node whatever the GPUs (the peer: -O --gres=gpu:2 --cpus-per-gpu=2 holds 1)
	}
	if s.GPUsPerNode > 0 {
		perNode := s.CPUsPerNode
		if perNode == 0 {
			perNode = (s.CPUs + max(s.Nodes, 1) - 1) / max(s.Nodes, 1)
		}
		s.CPUs, s.CPUsPerNode = 0, max(perNode, s.GPUsPerNode*cpg)
		return
	}
	if s.CPUsPerNode > 0 {
		s.CPUs, s.CPUsPerNode = s.CPUsPerNode*max(s.Nodes, 1), 0
	}
	s.CPUs = max(s.CPUs, s.GPUs*cpg)
}

func shapeMemory(s *sched.Shape, req *job.Request, cfg *slurmconf.Config, part *slurmconf.Partition) {
	defCPU, defNode := cfg.DefaultMemory(part) // DefMemPerCPU or DefMemPerNode
	defGPU := cfg.DefMemPerGPU
	if part != nil {
		defGPU = part.DefMemPerGPU
	}
	switch {
	case req.MemPerNode != nil && *req.MemPerNode == 0 && s.Exclusive:
		// Whole nodes with all their memory, each its own.
	case req.MemPerNode != nil && *req.MemPerNode == 0:
		// All of each node's memory, whatever its size (the peer gives
		// -N2 --gres=gpu:8 --mem=0 its GPU nodes' 500G each in a
		// partition with 125G CPU nodes).
		s.MemWhole = true
	case req.MemPerNode != nil:
		s.MemPerNode = *req.MemPerNode
	case req.MemPerCPU != nil:
		s.MemPerCPU = *req.MemPerCPU
	case req.MemPerGPU != nil:
		s.MemPerGPU = *req.MemPerGPU
	case defGPU > 0 && (s.GPUs > 0 || s.GPUsPerNode > 0):
		s.MemPerGPU = defGPU
	case defCPU > 0:
		s.MemPerCPU = defCPU
	case defNode > 0 && defNode != slurmconf.Unlimited:
		s.MemPerNode = defNode
	}
}

// smallestMemory is the RealMemory of the partition's smallest node (all
// nodes without a partition): what --mem=0 can always get.
func smallestMemory(cfg *slurmconf.Config, part *slurmconf.Partition) int64 {
	var names []string
	if part != nil {
		names = part.Nodes
	} else {
		for _, n := range cfg.Nodes {
			names = append(names, n.Name)
		}
	}
	var least int64
	for _, name := range names {
		if n, ok := cfg.Node(name); ok && (least == 0 || n.UsableMemory() < least) {
			least = n.UsableMemory() // RealMemory less MemSpecLimit
		}
	}
	return least
}

func gresGPUs(list []resource.GRES) []resource.GRES {
	var out []resource.GRES
	for _, g := range list {
		if g.Name == "gpu" {
			out = append(out, g)
		}
	}
	return out
}

func gpuCount(list []resource.GRES) int {
	n := 0
	for _, g := range list {
		if g.Name == "gpu" || g.Name == "" {
			n += int(g.Count)
		}
	}
	return n
}

func gpuType(req *job.Request) string {
	for _, list := range [][]resource.GRES{req.GPUsPerNode, req.GPUsPerTask, req.GPUs, gresGPUs(req.GRES)} {
		for _, g := range list {
			if g.Type != "" {
				return g.Type
			}
		}
	}
	return ""
}

func expandHosts(list, opt string) ([]string, error) {
	if list == "" {
		return nil, nil
	}
	hosts, err := hostlist.Expand(list)
	if err != nil {
		return nil, fmt.Errorf("%s %q: %w", opt, list, err)
	}
	return hosts, nil
}

// SwitchWait is how long a job with --switches waits for its leaf
// switches: its @max-time as the controller stored it (already capped),
// or max_switch_wait when none was given.
func SwitchWait(req *job.Request, cfg *slurmconf.Config) time.Duration {
	if req.SwitchWait != nil {
		return time.Duration(*req.SwitchWait) * time.Second
	}
	if cfg == nil {
		return 300 * time.Second
	}
	return cfg.SchedulerParameters.MaxSwitchWait
}
