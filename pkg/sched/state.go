package sched

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/hostlist"
)

// tick is a point in time in Unix nanoseconds. The hot paths compare many
// times; plain integers keep them cheap and make "never" a single value.
type tick = int64

// never is the end of a job without a time limit, or a start that cannot be
// planned.
const never tick = math.MaxInt64

func toTick(t time.Time) tick {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromTick(t tick) time.Time {
	if t == 0 || t == never {
		return time.Time{}
	}
	return time.Unix(0, t).UTC()
}

// after returns t+d, saturating at never; d <= 0 means no limit.
func after(t tick, d time.Duration) tick {
	if d <= 0 || t == never || t > never-int64(d) {
		return never
	}
	return t + int64(d)
}

// maxNodeGPUs bounds the GPUs counted on one node: the free-GPU index has
// a bucket per count, so a corrupt count must not size it.
const maxNodeGPUs = 1024

// nodeInfo is one node's capacity and, while the cycle runs, what is
// allocated and held on it. GPU indices live in cycle.gpuOcc/gpuHold at
// base..base+gpus.
type nodeInfo struct {
	name     string
	state    NodeState
	gpus     int
	cpus     int
	mem      int64
	gpuType  string
	features []string
	tmp      int64 // TmpDisk, MB
	weight   int
	leaf     int32 // leaf switch index, -1 outside the topology
	rank     int32 // preference order: weight, then Slurm's host order
	base     int   // first GPU slot
	parts    []int32

	allocC  int
	allocM  int64
	freeG   int       // GPUs neither allocated nor held
	holders []holdRef // reservations planning to use this node
	runs    []nodeRun // running jobs with an allocation here
}

// nodeRun is a running job's share of one node.
type nodeRun struct {
	r    int32
	cpus int
	mem  int64
}

// holdRef says reservation r needs cpus and mem on a node at its planned
// start: jobs that would still run then may not take them.
type holdRef struct {
	r    int32
	cpus int
	mem  int64
}

// schedulable reports whether new work may start on the node.
func (n *nodeInfo) schedulable() bool { return n.state == NodeUp }

func (n *nodeInfo) hasFeatures(want []string) bool {
	for _, f := range want {
		if _, ok := slices.BinarySearch(n.features, f); !ok {
			return false
		}
	}
	return true
}

// partInfo is a partition with its resolved node set.
type partInfo struct {
	cfg      *Partition
	idx      int32
	nodes    []int32 // node indices, in rank order
	maxGPUs  int     // largest node, for splitting jobs that give no node count
	maxCPUs  int
	gpuTotal int
	strict   bool
	depth    int // reservations held at once
	resvs    int // reservations held during this cycle
	stopped  bool
	blocked  bool // a job of this partition already waits for resources
	pool     int32
	maxMem   int64
	blockedN int   // jobs of this queue found blocked so far in the pass
	headSet  bool  // a job already waits at the head of this queue
	head     JobID // that job
}

// runInfo is a running job, or a job started in this cycle.
type runInfo struct {
	id        JobID
	part      int32 // -1 when the partition is unknown
	tenant    string
	user      string
	prio      int64
	start     tick
	end       tick // Start+Limit, the grace deadline, or never
	requeue   bool
	preempt   bool // inside a grace window (already, or chosen now)
	gpus      int
	cpus      int
	mem       int64
	nodes     int
	borrowed  int
	alloc     []NodeAlloc
	nodeIdx   []int32
	started   bool // started in this cycle
	protected bool // inside PreemptExemptTime
}

// cycle is the working state of one Cycle call.
type cycle struct {
	scratch *scratch
	cfg     *Config
	snap    *Snapshot
	now     tick
	pol     Policy

	userExcl *userExcl // nil without user-exclusive jobs (userexcl.go)

	parts   []partInfo
	partIdx map[string]int32
	nodes   []nodeInfo
	nodeIdx map[string]int32
	byRank  []int32
	// hostOrder and byHost are node table order (--contiguous): each
	// node's place, and the nodes by place; nil until a contiguous
	// demand needs them. contiguous.go.
	hostOrder, byHost []int32
	gpuOcc            []int32 // run index+1 occupying each GPU slot; 0 free
	gpuHold           []int32 // reservation index+1 holding each GPU slot; 0 none
	maxG              int
	leaves            int

	runs  []runInfo
	resvs []*resv
	drops []drop
	jobs  []jobInfo // in scheduling order: higher tier, priority, lower id
	// assocs are the (tenant, user) pairs of the pending jobs (load.go).
	assocs   []assocInfo
	assocIdx map[assoc]int32
	dup      []bool // per Snapshot.Pending entry: a repeated id
	// facs are the jobs' priority factors, per Snapshot.Pending entry:
	// only the plan reads them, so they stay out of jobInfo.
	facs []PriorityFactors
	// classes are each partition's node classes (nodeclass.go).
	classes     [][]nodeClass
	classesDone []bool
	// tenantIdx numbers the tenants of the pending jobs (assocInfo).
	tenantIdx map[string]int32

	tested      int      // EASY: jobs the pass tested, for bf_max_job_test
	stamp       []uint32 // per node: last stampGen that visited it
	stampGen    uint32
	maxPermit   tick // latest planned start of a non-strict reservation
	minResvTier int  // lowest tier holding a reservation
	anyBorrows  bool // some reservation's job would run on borrowed quota
	// lender is set while placing a patient lender's job (mayUse).
	lender bool
	// headPos is, while the first job of its queue in this pass is
	// placed, its position in scheduling order (mayUse); -1 otherwise.
	headPos  int32
	headPart int32
	// headWaited is how long that job has waited.
	headWaited time.Duration

	planCands    []planCand // scratch for planFor
	planTicks    []tick
	planFails    map[failKey]bool
	preemptFails map[preemptKey]bool
	preemptTries int
	victimLists  map[victimKey][]int32
	// memMaxCPUs caches featureMaxCPUs for a request restricted by its
	// memory per CPU alone, by partition and memory per CPU; usableMax
	// the others and usableMaxGPUs, by a key of every restriction.
	memMaxCPUs map[[2]int64]int
	usableMax  map[string]int

	idx      bucketIndex
	fails    failCache
	quota    quotaState
	adv      advState // admin reservations (advresv.go)
	lic      licState // licenses (licenses.go)
	prio     prioCtx
	plan     *Plan
	totalC   int
	totalN   int
	freeGPUs int64 // GPUs on up nodes that no job uses
}

// buildNodes indexes the snapshot's nodes and partitions.
func (c *cycle) buildNodes() {
	c.nodeIdx = make(map[string]int32, len(c.snap.Nodes))
	c.hostOrder, c.byHost = nil, nil
	c.nodes = make([]nodeInfo, 0, len(c.snap.Nodes))
	slots := 0
	for i := range c.snap.Nodes {
		sn := &c.snap.Nodes[i]
		if _, dup := c.nodeIdx[sn.Name]; dup || sn.Name == "" {
			continue // a duplicate or nameless node is ignored, never trusted twice
		}
		n := nodeInfo{name: sn.Name, state: sn.State, gpus: min(max(sn.GPUs, 0), maxNodeGPUs), cpus: max(sn.CPUs, 0),
			mem: max(sn.MemMB, 0), gpuType: sn.GPUType, weight: sn.Weight, leaf: -1, base: slots}
		n.features = slices.Clone(sn.Features)
		slices.Sort(n.features)
		n.tmp = max(sn.TmpDiskMB, 0)
		n.freeG = n.gpus
		slots += n.gpus
		c.maxG = max(c.maxG, n.gpus)
		c.nodeIdx[sn.Name] = int32(len(c.nodes))
		c.nodes = append(c.nodes, n)
		// The cluster's size counts every configured node, up or not, as
		// Slurm's job size factor does: a restart, before every node has
		// registered, must not inflate job sizes.
		c.totalC += n.cpus
		c.totalN++
		if n.schedulable() {
			c.freeGPUs += int64(n.gpus)
		}
	}
	c.stamp = make([]uint32, len(c.nodes))
	c.gpuOcc = make([]int32, slots)
	c.gpuHold = make([]int32, slots)
	c.rankNodes()
	c.buildTopology()
	c.buildPartitions()
}

// rankNodes orders nodes as Slurm prefers them: lower Weight first, then
// host-list order, so ties always break the same way.
func (c *cycle) rankNodes() {
	c.byRank = make([]int32, len(c.nodes))
	for i := range c.byRank {
		c.byRank[i] = int32(i)
	}
	slices.SortFunc(c.byRank, func(a, b int32) int {
		na, nb := &c.nodes[a], &c.nodes[b]
		if na.weight != nb.weight {
			return na.weight - nb.weight
		}
		return hostlist.Compare(na.name, nb.name)
	})
	for r, i := range c.byRank {
		c.nodes[i].rank = int32(r)
	}
}

// buildTopology maps each node to its leaf switch. A node listed under
// several leaves keeps the first.
func (c *cycle) buildTopology() {
	names := c.scratch.configNames(c.cfg)
	for i, sw := range c.cfg.Switches {
		if len(sw.Nodes) == 0 {
			continue
		}
		leaf := int32(c.leaves)
		c.leaves++
		for _, name := range names.switches[i] {
			if i, ok := c.nodeIdx[name]; ok && c.nodes[i].leaf < 0 {
				c.nodes[i].leaf = leaf
			}
		}
	}
}

// expandedNames are the Config's host lists expanded, per partition and
// per switch (Config order). They depend on the Config alone, which a
// Scheduler never changes, so they are expanded once.
type expandedNames struct {
	parts, switches [][]string
}

func (s *scratch) configNames(cfg *Config) *expandedNames {
	if s.names == nil {
		x := &expandedNames{}
		for i := range cfg.Partitions {
			x.parts = append(x.parts, expandNames(cfg.Partitions[i].Nodes))
		}
		for _, sw := range cfg.Switches {
			x.switches = append(x.switches, expandNames(sw.Nodes))
		}
		s.names = x
	}
	return s.names
}

// expandNames accepts plain names and host lists ("n[1-4]"); a malformed
// list is taken as a plain name, so it matches nothing rather than failing.
func expandNames(names []string) []string {
	var out []string
	for _, s := range names {
		if !strings.ContainsAny(s, "[,") {
			out = append(out, s)
			continue
		}
		if ex, err := hostlist.Expand(s); err == nil {
			out = append(out, ex...)
		} else {
			out = append(out, s)
		}
	}
	return out
}

func (c *cycle) buildPartitions() {
	c.partIdx = make(map[string]int32, len(c.cfg.Partitions))
	for i := range c.cfg.Partitions {
		p := &c.cfg.Partitions[i]
		if _, dup := c.partIdx[p.Name]; dup {
			continue
		}
		pi := partInfo{cfg: p, idx: int32(len(c.parts)), strict: p.Strict && c.pol == PolicyLoam}
		pi.depth = p.ReservationDepth
		switch c.pol {
		case PolicyEASY:
			// Every blocked job the pass tests reserves, unless
			// bf_job_part_count_reserve bounds them per partition.
			pi.depth = c.cfg.Backfill.maxJobTest()
			if n := c.cfg.Backfill.PartCountReserve; n > 0 {
				pi.depth = n
			}
		case PolicyFCFS:
			pi.depth = 0
		}
		c.stampGen++ // marks the nodes already listed
		for _, name := range c.scratch.configNames(c.cfg).parts[i] {
			if ni, ok := c.nodeIdx[name]; ok && c.stamp[ni] != c.stampGen {
				c.stamp[ni] = c.stampGen
				pi.nodes = append(pi.nodes, ni)
			}
		}
		slices.SortFunc(pi.nodes, func(a, b int32) int { return int(c.nodes[a].rank - c.nodes[b].rank) })
		for _, ni := range pi.nodes {
			n := &c.nodes[ni]
			n.parts = append(n.parts, pi.idx)
			pi.maxGPUs = max(pi.maxGPUs, n.gpus)
			pi.maxCPUs = max(pi.maxCPUs, n.cpus)
			pi.maxMem = max(pi.maxMem, n.mem)
			if m := p.MaxCPUsPerNode; m > 0 {
				pi.maxCPUs = min(pi.maxCPUs, m) // maxcpus.go: -n spreads over nodes
			}
			if n.state != NodeDown {
				pi.gpuTotal += n.gpus
			}
		}
		c.partIdx[p.Name] = pi.idx
		c.parts = append(c.parts, pi)
	}
}

// partOf is the index of the partition named name, or -1. Clusters have a
// handful of partitions, and comparing their names is cheaper than
// hashing: the pass looks up one per job.
func (c *cycle) partOf(name string) int32 {
	if len(c.parts) <= 8 {
		for i := range c.parts {
			if c.parts[i].cfg.Name == name {
				return int32(i)
			}
		}
		return -1
	}
	if i, ok := c.partIdx[name]; ok {
		return i
	}
	return -1
}

// addRun records a running job's allocation on its nodes. Allocations on
// unknown nodes or GPU indices are skipped: the caller's state is trusted
// only as far as the Config describes it.
func (c *cycle) addRun(r runInfo) int32 {
	ri := int32(len(c.runs))
	for _, a := range r.alloc {
		ni, ok := c.nodeIdx[a.Node]
		if !ok || slices.Contains(r.nodeIdx, ni) {
			continue // unknown node, or a second entry for one node
		}
		n := &c.nodes[ni]
		r.nodeIdx = append(r.nodeIdx, ni)
		r.nodes++
		r.cpus += a.CPUs
		r.mem += a.MemMB
		n.allocC += a.CPUs
		n.allocM += a.MemMB
		n.runs = append(n.runs, nodeRun{r: ri, cpus: a.CPUs, mem: a.MemMB})
		for k, g := range a.GPUs {
			if g < 0 || g >= n.gpus || c.gpuOcc[n.base+g] != 0 {
				continue
			}
			c.gpuOcc[n.base+g] = ri + 1
			n.freeG--
			if n.schedulable() {
				c.freeGPUs--
			}
			r.gpus++
			if k < len(a.Borrowed) && a.Borrowed[k] {
				r.borrowed++
			}
		}
	}
	c.runs = append(c.runs, r)
	return ri
}

// loadRunning turns the snapshot's running jobs into runInfo, in JobID order
// so that conflicting allocations resolve the same way every time.
func (c *cycle) loadRunning() {
	idx := make([]int, len(c.snap.Running))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmpID(c.snap.Running[a].ID, c.snap.Running[b].ID) })
	c.runs = make([]runInfo, 0, len(idx)+len(c.snap.Pending)/8)
	for _, i := range idx {
		rj := &c.snap.Running[i]
		r := runInfo{id: rj.ID, part: c.partOf(rj.Partition), tenant: rj.Tenant, user: rj.User,
			prio: rj.Priority, start: toTick(rj.Start), end: after(toTick(rj.Start), rj.Limit),
			requeue: rj.Requeue, preempt: rj.Preempting, alloc: rj.Alloc}
		if rj.Preempting && !rj.PreemptDeadline.IsZero() {
			r.end = min(r.end, toTick(rj.PreemptDeadline))
		}
		if r.end != never && r.end < c.now {
			r.end = c.now // overdue: it frees at the next event, not in the past
		}
		// Slurm counts PreemptExemptTime from the start of the run; Loam
		// adds the run the job already lost, so the same job is not
		// preempted again and again.
		exempt := c.cfg.PreemptExemptTime
		if c.pol == PolicyLoam {
			exempt += max(rj.LostRun, 0)
		}
		r.protected = exempt > 0 && c.now-r.start < int64(exempt)
		c.addRun(r)
	}
}

func cmpID(a, b JobID) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// nodeCPUFree is how many CPUs and MB of node n a job of tier tier, ending
// at end and owning reservation own, may take now: what no job uses, less
// what reservations that do not let it through need there at their
// planned start.
func (c *cycle) nodeCPUFree(n *nodeInfo, own int32, end tick, tier int) (int, int64) {
	cpus, mem := n.cpus-n.allocC, n.mem-n.allocM
	for _, h := range n.holders {
		if h.r == own || c.mayUse(c.resvs[h.r], end, tier) {
			continue
		}
		cpus -= h.cpus
		mem -= h.mem
	}
	return cpus, mem
}

// gpuUsable reports whether GPU slot s is free for a job ending at end that
// owns reservation own (-1 for none).
func (c *cycle) gpuUsable(s int, own int32, end tick, tier int) bool {
	if c.gpuOcc[s] != 0 {
		return false
	}
	h := c.gpuHold[s] - 1
	return h < 0 || h == own || c.mayUse(c.resvs[h], end, tier)
}

// refreshNode recomputes a node's unheld free GPUs and moves it between
// index buckets.
func (c *cycle) refreshNode(ni int32) {
	n := &c.nodes[ni]
	free := 0
	for s := n.base; s < n.base+n.gpus; s++ {
		if c.gpuOcc[s] == 0 && c.gpuHold[s] == 0 {
			free++
		}
	}
	n.freeG = free
	c.idx.update(c, ni)
}
