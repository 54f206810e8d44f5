package sched

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/job"
)

// maxCount bounds every count in a request so that products of counts
// cannot overflow; anything larger cannot fit a real cluster anyway.
const maxCount = 1 << 24

// demand is a request resolved against one partition: n nodes, the first
// n-1 needing (g, c, m) and the last (lg, lc, lm) <= (g, c, m). A request
// without a node count is split into the fewest nodes of the partition's
// largest size, so the remainder lands on the last node.
type demand struct {
	n        int
	g, c     int
	m        int64
	lg, lc   int
	lm       int64
	excl     bool
	memWhole bool // Shape.MemWhole: m and lm are 0, each node gives all its memory (memOn)
	// exclMemPerCPU is --mem-per-cpu of an --exclusive job, which takes
	// every CPU of its nodes and so that much memory for each (memOn).
	exclMemPerCPU int64
	gpuType       string
	features      []string
	feat          *job.NodeTest      // -C beyond an AND list: every node passes it (constraint.go)
	counts        []job.FeatureCount // -C counts: that many nodes pass each, each on its own nodes
	tmp           int64              // --tmp: the least TmpDisk of each node, MB
	exclude       []int32            // sorted node indices
	nodeList      []int32            // node indices, all must be used
	totalG        int
	totalC        int
	key           string // non-empty for requests with node constraints
	unknownReq    bool   // -w names a node that does not exist
	user          string // the job's user while user-exclusive jobs exist (userexcl.go)
	exclUser      bool
	// wide is the same request on Shape.MaxNodes nodes, tried first when
	// it starts now; nil when there is no wider shape.
	wide *demand
	// pref is the request with --prefer in place of -C, one for each
	// option of a matching OR, tried first when it starts now (prefer.go).
	pref []demand
	// grown are a -w job's request on one, two... more nodes than it
	// names (growth.go), tried in turn when it cannot start now on them.
	grown []demand
	// maxLeaves is --switches while it binds: the most leaf switches the
	// nodes may span for a start before leafUntil (0: any). switches.go.
	maxLeaves int
	leafUntil tick
	// contig is --contiguous: the nodes are consecutive in node table
	// order. contiguous.go.
	contig bool
}

// constrained reports whether the request restricts nodes beyond counts.
func (d *demand) constrained() bool { return d.key != "" }

// resolveDemand turns a job's Shape into a demand on partition p. It
// returns a reason when the shape is malformed or cannot fit p.
//
// alt is the option of a matching OR -C ("[a|b]") the demand is for.
func (c *cycle) resolveDemand(sh *Shape, p *partInfo, alt int) (demand, Reason) {
	var d demand
	if sh.Nodes < 0 || sh.GPUs < 0 || sh.GPUsPerNode < 0 || sh.CPUs < 0 || sh.CPUsPerNode < 0 ||
		sh.MemPerNode < 0 || sh.MemPerCPU < 0 || sh.MemPerGPU < 0 || sh.TmpDiskMB < 0 {
		return d, ReasonBadConstraints
	}
	if sh.Nodes > len(p.nodes) || (p.cfg.MaxNodes > 0 && sh.Nodes > p.cfg.MaxNodes) || len(sh.NodeList) > len(p.nodes) {
		if sh.Constraint != nil && sh.Constraint.MinNodes() >= sh.Nodes {
			// -C's counts ask for more nodes than there are (scontrol
			// update takes "gpu*99"): Slurm's node selection fails.
			return d, ReasonBadConstraints
		}
		return d, ReasonPartitionNodeLimit
	}
	if sh.GPUs > maxCount || sh.GPUsPerNode > maxCount || sh.CPUs > maxCount || sh.CPUsPerNode > maxCount ||
		sh.MemPerCPU > 1<<40 || sh.MemPerGPU > 1<<40 {
		return d, ReasonPartitionConfig
	}
	d.n = max(sh.Nodes, len(sh.NodeList))
	d.splitGPUs(sh, p, c.usableMaxGPUs(sh, p, alt))
	d.splitCPUs(sh, p, c.featureMaxCPUs(sh, p, alt))
	d.splitMem(sh)
	d.excl = sh.Exclusive
	d.memWhole = sh.MemWhole
	if sh.Exclusive && sh.MemPerCPU > 0 {
		d.exclMemPerCPU = sh.MemPerCPU
	}
	d.totalG = d.g*(d.n-1) + d.lg
	d.totalC = d.c*(d.n-1) + d.lc
	if d.n > len(p.nodes) || (p.cfg.MaxNodes > 0 && d.n > p.cfg.MaxNodes) {
		return d, ReasonPartitionNodeLimit
	}
	c.resolveConstraints(&d, sh, alt)
	c.resolveWide(&d, sh, p, alt)
	return d, ""
}

// resolveWide sets d.wide for a request without a GPU total or -w whose
// -N range allows more nodes than d takes, capped by the partition's
// size. GPUs a node spread with the nodes, as Slurm's node selection
// does (the peer runs -N2-4 --gpus-per-node=2 on 4 idle nodes, 8 GPUs);
// a GPU total stays on the fewest nodes that hold it (-N2-4 --gpus=8 on
// 2).
func (c *cycle) resolveWide(d *demand, sh *Shape, p *partInfo, alt int) {
	most := min(sh.MaxNodes, len(p.nodes))
	if p.cfg.MaxNodes > 0 {
		most = min(most, p.cfg.MaxNodes)
	}
	if most <= d.n || sh.GPUs > 0 && sh.GPUsPerNode == 0 || len(sh.NodeList) > 0 || d.counts != nil {
		return
	}
	w := *sh
	w.Nodes, w.MaxNodes = most, 0
	if wd, r := c.resolveDemand(&w, p, alt); r == "" && wd.n == most {
		d.wide = &wd
	}
}

// maxGPUs is the most GPUs one node the job may use holds for it: a GPU
// total without a node count spreads over as many such nodes as it needs.
func (d *demand) splitGPUs(sh *Shape, p *partInfo, maxGPUs int) {
	switch {
	case sh.GPUsPerNode > 0:
		d.n = max(d.n, 1)
		d.g, d.lg = sh.GPUsPerNode, sh.GPUsPerNode
	case sh.GPUs > 0:
		if d.n == 0 {
			d.n = 1
			if maxGPUs > 0 && sh.GPUs > maxGPUs {
				d.n = (sh.GPUs + maxGPUs - 1) / maxGPUs
			}
		}
		d.g = (sh.GPUs + d.n - 1) / d.n
		d.lg = max(sh.GPUs-(d.n-1)*d.g, 0)
	default:
		d.n = max(d.n, 1)
	}
}

// splitCPUs shares a request's CPUs over its nodes for choosing them, as
// Slurm's cons_tres lays them out on idle nodes (the peer: -N2 -n4 gets
// 3,1 CPUs, -N3 -n4 2,1,1, -N2 -n5 4,1): every node gets its least share
// (one task's CPUs: CPUsPerNode when CPUs is also set, else one CPU) and
// one node the rest. Two nodes put the rest on the first (full) share;
// more nodes on the last, so the n-1 equal nodes are the least ones. When
// no node of the partition could hold the rest, the tasks are spread
// evenly instead, so that any nodes with that much free qualify. Either
// way the shares only pick the nodes: applying the start lays CPU jobs
// out as Slurm does, one task's CPUs a node and the rest filling the
// nodes one by one in name order, each to its free CPUs (-N3 -n70 on idle
// 32-CPU nodes runs 32(x2),6). GPU jobs stay even, where Slurm fills them
// too (-N2 -n16 --gpus-per-node=8 gets 15,1): the node with the rest
// would need most of its CPUs free besides its GPUs, which keeps GPU
// nodes idle for CPUs.
//
// maxCPUs is the most CPUs one node the job may use holds: a CPU total
// without a node count spreads over as many such nodes as it needs.
func (d *demand) splitCPUs(sh *Shape, p *partInfo, maxCPUs int) {
	switch {
	case sh.CPUsPerNode > 0 && sh.CPUs == 0:
		d.c, d.lc = sh.CPUsPerNode, sh.CPUsPerNode
	case sh.CPUs > 0:
		if sh.Nodes == 0 && len(sh.NodeList) == 0 && d.g == 0 && d.n == 1 && maxCPUs > 0 && sh.CPUs > maxCPUs {
			d.n = (sh.CPUs + maxCPUs - 1) / maxCPUs
		}
		least := max(sh.CPUsPerNode, 1)
		if sh.CPUs%least != 0 {
			least = 1
		}
		rest := sh.CPUs - (d.n-1)*least
		switch {
		case d.n == 1:
			d.c, d.lc = sh.CPUs, sh.CPUs
		case rest < least || (maxCPUs > 0 && rest > maxCPUs) || d.g > 0:
			d.evenCPUs(sh.CPUs, least)
		case d.n == 2:
			d.c, d.lc = rest, least
		default:
			d.c, d.lc = least, rest
		}
	default:
		d.c, d.lc = 1, 1
	}
}

// featureMaxCPUs is the most CPUs a node of p holds for the job among
// those its -C, -x, GPU type and --tmp let it use, each node counted for
// no more CPUs than its memory holds at --mem-per-cpu (the partition's
// largest when it restricts none): -C cpu -n64, or -n96 -x of the GPU
// nodes, on 32-CPU CPU nodes beside 64-CPU GPU nodes spreads over CPU
// nodes, and -n10 --mem-per-cpu=60G over nodes that hold its memory.
func (c *cycle) featureMaxCPUs(sh *Shape, p *partInfo, alt int) int {
	memOnly := !restrictsNodes(sh)
	if memOnly && sh.MemPerCPU <= 0 {
		return p.maxCPUs
	}
	key := [2]int64{int64(p.idx), sh.MemPerCPU}
	var restKey string
	if memOnly {
		if m, ok := c.memMaxCPUs[key]; ok {
			return m
		}
	} else {
		restKey = restrictionKey("c", sh, p, alt, sh.MemPerCPU)
		if m, ok := c.usableMax[restKey]; ok {
			return m
		}
	}
	most := 0
	c.eachUsableNode(sh, p, alt, func(n *nodeInfo) {
		cpus := n.cpus
		if sh.MemPerCPU > 0 {
			cpus = min(cpus, int(n.mem/sh.MemPerCPU))
		}
		most = max(most, cpus)
	})
	if most == 0 || most > p.maxCPUs {
		most = p.maxCPUs
	}
	if memOnly {
		c.memMaxCPUs[key] = most
	} else {
		c.usableMax[restKey] = most
	}
	return most
}

// usableMaxGPUs is featureMaxCPUs for a GPU total without a node count:
// the most GPUs a node the job may use holds for it, each node counted for
// no more GPUs than its memory holds at the job's memory a GPU
// (--mem-per-gpu, or --mem-per-cpu times its CPUs a GPU) and its CPUs at
// its CPUs a GPU. --gpus=3 --mem-per-gpu=300G on 500 GB nodes takes 3
// nodes, -n4 --gpus-per-task=1 --mem-per-cpu=200G 2, as on the peer; they
// pended as PartitionConfig, planned on one node.
func (c *cycle) usableMaxGPUs(sh *Shape, p *partInfo, alt int) int {
	if sh.GPUs <= 0 || sh.Nodes > 0 || len(sh.NodeList) > 0 {
		return p.maxGPUs
	}
	perCPUs := 0
	if sh.CPUs > 0 {
		perCPUs = (sh.CPUs + sh.GPUs - 1) / sh.GPUs
	}
	perMem := sh.MemPerGPU
	if perMem <= 0 && sh.MemPerCPU > 0 && perCPUs > 0 {
		perMem = sh.MemPerCPU * int64(perCPUs)
	}
	if perMem <= 0 && perCPUs <= 1 && !restrictsNodes(sh) {
		return p.maxGPUs
	}
	key := restrictionKey("g", sh, p, alt, perMem, perCPUs)
	if m, ok := c.usableMax[key]; ok {
		return m
	}
	most := 0
	c.eachUsableNode(sh, p, alt, func(n *nodeInfo) {
		g := n.gpus
		if perMem > 0 {
			g = min(g, int(n.mem/perMem))
		}
		if perCPUs > 0 {
			g = min(g, n.cpus/perCPUs)
		}
		most = max(most, g)
	})
	if most == 0 || most > p.maxGPUs {
		most = p.maxGPUs
	}
	c.usableMax[key] = most
	return most
}

// restrictionKey identifies, for the usableMax cache, what limits the
// nodes a request may use on p: its -C (option alt), -x, GPU type and
// --tmp, and the counts given.
func restrictionKey(tag string, sh *Shape, p *partInfo, alt int, counts ...any) string {
	k := fmt.Sprint(tag, p.idx, counts, sh.Features, sh.Exclude, sh.GPUType, sh.TmpDiskMB, alt)
	if sh.Constraint != nil {
		k += sh.Constraint.String()
	}
	return k
}

// restrictsNodes reports whether -C, -x, a GPU type or --tmp keep the job
// off some nodes.
func restrictsNodes(sh *Shape) bool {
	return len(sh.Features) > 0 || sh.Constraint != nil || len(sh.Exclude) > 0 || sh.GPUType != "" || sh.TmpDiskMB > 0
}

// eachUsableNode calls fn for each node of p that the job's -C, -x, GPU
// type and --tmp let it use.
func (c *cycle) eachUsableNode(sh *Shape, p *partInfo, alt int, fn func(n *nodeInfo)) {
	var feat *job.NodeTest
	if sh.Constraint != nil {
		feat = sh.Constraint.NodeTest(alt)
	}
	var excluded map[int32]bool
	if len(sh.Exclude) > 0 {
		excluded = map[int32]bool{}
		for _, name := range expandNames(sh.Exclude) {
			if i, ok := c.nodeIdx[name]; ok {
				excluded[i] = true
			}
		}
	}
	for _, ni := range p.nodes {
		n := &c.nodes[ni]
		switch {
		case excluded[ni], n.tmp < sh.TmpDiskMB, sh.GPUType != "" && n.gpuType != sh.GPUType,
			len(sh.Features) > 0 && !n.hasFeatures(sh.Features), feat != nil && !feat.Match(n.features):
			continue
		}
		fn(n)
	}
}

// evenCPUs spreads cpus in whole tasks of least CPUs as evenly as the
// nodes allow, the last node taking what is left.
func (d *demand) evenCPUs(cpus, least int) {
	tasks := cpus / least
	d.c = (tasks + d.n - 1) / d.n * least
	d.lc = cpus - (d.n-1)*d.c
	if d.lc < least {
		d.c = (cpus + d.n - 1) / d.n
		d.lc = max(cpus-(d.n-1)*d.c, 1)
	}
}

func (d *demand) splitMem(sh *Shape) {
	switch {
	case sh.MemPerNode > 0:
		d.m, d.lm = sh.MemPerNode, sh.MemPerNode
	case sh.MemPerCPU > 0:
		d.m, d.lm = int64(d.c)*sh.MemPerCPU, int64(d.lc)*sh.MemPerCPU
	case sh.MemPerGPU > 0:
		d.m, d.lm = int64(d.g)*sh.MemPerGPU, int64(d.lg)*sh.MemPerGPU
	}
}

// resolveConstraints maps node names to indices and builds the key that
// identifies equally constrained requests in the failure caches.
func (c *cycle) resolveConstraints(d *demand, sh *Shape, alt int) {
	d.gpuType, d.tmp = sh.GPUType, sh.TmpDiskMB
	if len(sh.Features) > 0 {
		d.features = slices.Clone(sh.Features)
		slices.Sort(d.features)
	}
	if sh.Constraint != nil {
		d.feat, d.counts = sh.Constraint.NodeTest(alt), sh.Constraint.Counts(alt)
	}
	for _, name := range expandNames(sh.Exclude) {
		if i, ok := c.nodeIdx[name]; ok {
			d.exclude = append(d.exclude, i)
		}
	}
	slices.Sort(d.exclude)
	d.exclude = slices.Compact(d.exclude)
	for _, name := range expandNames(sh.NodeList) {
		i, ok := c.nodeIdx[name]
		if !ok {
			d.unknownReq = true
			continue
		}
		if !slices.Contains(d.nodeList, i) {
			d.nodeList = append(d.nodeList, i)
		}
	}
	d.n = max(d.n, len(d.nodeList))
	if d.gpuType == "" && len(d.features) == 0 && len(d.exclude) == 0 && len(d.nodeList) == 0 && !d.excl && d.tmp == 0 &&
		sh.Constraint == nil {
		return
	}
	var b strings.Builder
	b.WriteString(d.gpuType)
	b.WriteByte('|')
	b.WriteString(strings.Join(d.features, ","))
	if sh.Constraint != nil {
		b.WriteString("|" + sh.Constraint.String() + "#" + strconv.Itoa(alt))
	}
	for _, set := range [][]int32{d.exclude, d.nodeList} {
		b.WriteByte('|')
		for _, i := range set {
			b.WriteString(strconv.Itoa(int(i)))
			b.WriteByte(',')
		}
	}
	if d.excl {
		b.WriteString("|x")
	}
	if d.tmp > 0 {
		b.WriteString("|t")
		b.WriteString(strconv.FormatInt(d.tmp, 10))
	}
	d.key = b.String()
}

// nodeStatic reports whether node n can ever hold g GPUs, cpus and mem of
// this request: capacity, GPU type, features, TmpDisk and -x. State is not
// looked at.
func (d *demand) nodeStatic(n *nodeInfo, ni int32, g, cpus int, mem int64) bool {
	if n.gpus < g || n.cpus < cpus || n.mem < d.memOn(n, mem) || n.tmp < d.tmp {
		return false
	}
	if d.gpuType != "" && n.gpuType != d.gpuType {
		return false
	}
	if len(d.features) > 0 && !n.hasFeatures(d.features) {
		return false
	}
	if d.feat != nil && !d.feat.Match(n.features) {
		return false
	}
	if len(d.exclude) > 0 {
		if _, found := slices.BinarySearch(d.exclude, ni); found {
			return false
		}
	}
	return true
}

// uniform reports whether every node of the demand needs the same share.
func (d *demand) uniform() bool {
	return d.n == 1 || (d.lg == d.g && d.lc == d.c && d.lm == d.m)
}

// memOn is the memory the demand takes on node n when its share there is
// m: all of the node's with MemWhole.
func (d *demand) memOn(n *nodeInfo, m int64) int64 {
	switch {
	case d.memWhole:
		return n.mem
	case d.exclMemPerCPU > 0:
		// --exclusive --mem-per-cpu: the job holds every CPU of the node,
		// and memory for each (slurmctld refuses --exclusive
		// --mem-per-cpu=20G where no node has 20G for each of its CPUs).
		return max(m, int64(n.cpus)*d.exclMemPerCPU)
	}
	return m
}

// need returns what the demand takes on node n, its last node or not
// (the last one may need less; memOn gives MemWhole its memory).
func (d *demand) need(n *nodeInfo, last bool) (int, int, int64) {
	if last {
		return d.lg, d.lc, d.memOn(n, d.lm)
	}
	return d.g, d.c, d.memOn(n, d.m)
}
