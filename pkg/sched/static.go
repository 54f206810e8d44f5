package sched

import (
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/hostlist"
)

// jobInfo is a pending job as this cycle sees it. The jobs are stored in
// scheduling order and the fields every pass reads come first, copied out
// of the PendingJob: at 50,000 jobs the passes are bound by memory, and a
// job's hot state then fits one cache line next to its neighbour's.
type jobInfo struct {
	reason Reason
	prim   int32 // partition the job is queued and prioritised in; -1 none
	resv   int32 // reservation index, -1 none
	starts int
	ntasks int // tasks(): starts the job may get now
	id     JobID
	as     int32 // index of its (tenant, user) pair in cycle.assocs
	limit  time.Duration
	noEst  bool // can never run as things stand: no estimated start
	// poolWait: the limit in reason is the lendable pool (reasonPool).
	poolWait   bool
	arrayTasks int
	arrayRoom  int
	waited     time.Duration // since eligible, as of now
	begin      tick          // --begin
	resvAfter  tick          // end of a carried reservation cool-down
	est        tick
	prio       int64
	pos        int32     // position in scheduling order (its index in cycle.jobs)
	idx        int32     // index in Snapshot.Pending
	dem        *demand   // shared by the jobs whose requests resolve alike: never changed
	alts       []altPart // further partitions the job may run in
	claim      int       // GPUs claimed by a reclaim or preemption in this cycle
	// coolUntil is the end of a cool-down that began in this cycle.
	coolUntil tick
	p         *PendingJob
}

// altPart is another partition of a multi-partition job, with the request
// resolved against it.
type altPart struct {
	part int32
	dem  demand
}

// feasKey identifies a request shape on a partition for the feasibility
// cache: most queues hold a few thousand jobs of a few dozen shapes.
// Constrained requests (rare) are keyed by their constraints as well.
type feasKey struct {
	part    int32
	n, g, c int
	lg, lc  int
	m, lm   int64
}

type feasCache struct {
	plain       map[feasKey]Reason
	constrained map[failKey]Reason
	byShape     map[plainKey]*partsResult
	gpuTypes    map[string]int32
	accounts    bool    // some partition allows or denies accounts
	cands       []int32 // scratch for candidateParts
}

// classify resolves a job's partitions and demands and gives the reason a
// job cannot be considered at all, if any. Order of checks follows Slurm:
// holds and dependencies first, then partition limits, then begin time.
func (c *cycle) classify(j *jobInfo, feas *feasCache) {
	pj := j.p
	j.prim, j.resv = -1, -1
	switch pj.Hold {
	case HeldUser:
		j.reason = ReasonJobHeldUser
	case HeldAdmin:
		j.reason = ReasonJobHeldAdmin
	case HeldDependency:
		j.reason = ReasonDependency
	case HeldDependencyNever:
		j.reason = ReasonDependencyNeverSatisfied
	}
	pr := feas.parts(c, j)
	j.prim, j.dem, j.alts, j.limit = pr.prim, &pr.dem, pr.alts, pr.limit
	// Slurm tests the begin time and the job's advance reservation
	// (job_independent) before the partition's limits and nodes
	// (job_limits_check, select_nodes): until its time comes, a job that
	// can never run as things stand shows BeginTime, still without an
	// estimate.
	j.noEst = j.reason != "" || pr.reason != ""
	switch {
	case j.reason != "":
	case toTick(pj.Begin) > c.now:
		j.reason = ReasonBeginTime
	case pr.reason != "" && pj.Reservation != "":
		c.advClassify(j)
		if j.reason == "" {
			j.reason = pr.reason
		}
	case pr.reason != "":
		j.reason = pr.reason
	case pj.ArrayRoom == 0:
		j.reason = ReasonJobArrayTaskLimit
	case pj.Reservation != "":
		c.advClassify(j) // its admin reservation is gone or not started
	}
}

// partsResult is a request resolved against its partitions: the primary
// one with its demand, the alternatives, the effective time limit, and
// the reason no partition can ever run it (or "").
type partsResult struct {
	prim   int32
	dem    demand
	alts   []altPart
	limit  time.Duration
	reason Reason
}

// plainKey identifies the requests that resolve alike: one partition,
// one tenant (when partitions allow or deny accounts), one limit and one
// shape without node constraints. Queues of thousands of jobs hold a few
// dozen of them.
type plainKey struct {
	part, tenant            int32
	nodes, maxNodes         int
	gpus, gpusPerNode       int
	cpus, cpusPerNode       int
	memNode, memCPU, memGPU int64
	limitMem                int64 // checked against MaxMemPerNode
	limit                   time.Duration
	gpuType                 int32 // 0: none; else feasCache.gpuTypes[GPUType]
	exclusive, memWhole     bool
}

// parts resolves pj's partitions, from the cache when its request is
// plain. Results are shared between jobs and never changed.
func (f *feasCache) parts(c *cycle, j *jobInfo) *partsResult {
	pj, sh := j.p, &j.p.Shape
	if len(pj.Partitions) != 1 || len(sh.NodeList) > 0 || len(sh.Exclude) > 0 || len(sh.Features) > 0 || sh.Constraint != nil || sh.TmpDiskMB != 0 ||
		sh.Preferred != nil || // prefer.go
		sh.Switches > 0 || // switches.go: the demand holds the job's wait
		sh.Contiguous || // contiguous.go
		c.userExcl != nil { // userexcl.go: the demand holds the user
		return c.resolveParts(pj, f)
	}
	part := c.partOf(pj.Partitions[0])
	if part < 0 {
		return c.resolveParts(pj, f)
	}
	k := plainKey{part: part, tenant: -1, gpuType: f.gpuType(sh.GPUType), nodes: sh.Nodes, maxNodes: sh.MaxNodes, gpus: sh.GPUs,
		gpusPerNode: sh.GPUsPerNode, cpus: sh.CPUs, cpusPerNode: sh.CPUsPerNode, memNode: sh.MemPerNode,
		memCPU: sh.MemPerCPU, memGPU: sh.MemPerGPU, limitMem: sh.LimitMem, limit: pj.Limit, exclusive: sh.Exclusive,
		memWhole: sh.MemWhole}
	if f.accounts {
		k.tenant = c.assocs[j.as].tenantID // the tenant matters only here
	}
	if pr, ok := f.byShape[k]; ok {
		return pr
	}
	pr := c.resolveParts(pj, f)
	f.byShape[k] = pr
	return pr
}

// gpuType numbers GPU types so that plainKey holds no string.
func (f *feasCache) gpuType(t string) int32 {
	if t == "" {
		return 0
	}
	i, ok := f.gpuTypes[t]
	if !ok {
		i = int32(len(f.gpuTypes)) + 1
		f.gpuTypes[t] = i
	}
	return i
}

// resolveParts checks pj against each of its partitions.
func (c *cycle) resolveParts(pj *PendingJob, feas *feasCache) *partsResult {
	pr := &partsResult{prim: -1}
	cands := c.candidateParts(pj, feas.cands[:0])
	feas.cands = cands
	var first Reason
	passed := false
	alts := 1
	if pj.Shape.Constraint != nil {
		alts = pj.Shape.Constraint.Alternatives() // a matching OR: each option in turn
	}
	for _, pi := range cands {
		for alt := range alts {
			d, r := c.checkPartition(pj, &c.parts[pi], feas, alt)
			if first == "" && r != "" {
				first = r
			}
			if r != "" {
				continue
			}
			if !passed {
				passed = true
				pr.prim, pr.dem = pi, d
			} else {
				pr.alts = append(pr.alts, altPart{part: pi, dem: d})
			}
		}
	}
	if pr.prim < 0 && len(cands) > 0 {
		pr.prim = cands[0]
	}
	pr.limit = c.effectiveLimit(pj, pr.prim)
	switch {
	case len(cands) == 0:
		pr.reason = ReasonPartitionConfig
	case !passed:
		pr.reason = first
	}
	return pr
}

// candidateParts lists the job's known partitions by PriorityTier, highest
// first, keeping the user's order among equal tiers (Slurm shows
// "-p batch,normal" as "normal,batch"). It appends to out.
func (c *cycle) candidateParts(pj *PendingJob, out []int32) []int32 {
	for _, name := range pj.Partitions {
		if pi := c.partOf(name); pi >= 0 && !slices.Contains(out, pi) {
			out = append(out, pi)
		}
	}
	slices.SortStableFunc(out, func(a, b int32) int { return c.parts[b].cfg.Tier - c.parts[a].cfg.Tier })
	return out
}

func (c *cycle) effectiveLimit(pj *PendingJob, pi int32) time.Duration {
	if pj.Limit > 0 || pi < 0 {
		return pj.Limit
	}
	p := c.parts[pi].cfg
	if p.DefaultTime > 0 {
		return p.DefaultTime
	}
	return p.MaxTime
}

// checkPartition gives the reason job pj can never run in partition p as
// the cluster stands, or the resolved demand.
func (c *cycle) checkPartition(pj *PendingJob, p *partInfo, feas *feasCache, alt int) (demand, Reason) {
	if !p.cfg.Up {
		if p.cfg.Inactive {
			return demand{}, ReasonPartitionInactive
		}
		return demand{}, ReasonPartitionDown
	}
	if !accountAllowed(p.cfg, pj.Tenant) {
		return demand{}, ReasonAccountNotAllowed
	}
	if p.cfg.MaxTime > 0 && c.effectiveLimit(pj, p.idx) > p.cfg.MaxTime {
		return demand{}, ReasonPartitionTimeLimit
	}
	if p.cfg.MaxMemPerNode > 0 && pj.Shape.LimitMem > p.cfg.MaxMemPerNode {
		return demand{}, ReasonMaxMemPerLimit
	}
	d, r := c.checkShape(pj, &pj.Shape, p, feas, alt)
	if r == "" && pj.Shape.Preferred != nil {
		c.preferDemands(&d, pj, p, feas) // prefer.go
	}
	return d, r
}

// checkShape resolves shape sh of pj (its own, or its --prefer form) on
// p, growing the node count within -N's range when needed.
func (c *cycle) checkShape(pj *PendingJob, sh *Shape, p *partInfo, feas *feasCache, alt int) (demand, Reason) {
	d, r := c.demandOn(pj, sh, p, feas, alt)
	// -N min-max: when min nodes cannot hold the job's shares, the
	// fewest nodes in the range that can (Slurm: -N2-4 -n200 runs on 4
	// nodes of 64 CPUs, -N2-4 --gpus=32 on 4 nodes of 8 GPUs).
	for n := sh.Nodes + 1; countBound(r) && sh.Nodes > 0 && n <= min(sh.MaxNodes, len(p.nodes)); n++ {
		s := *sh
		s.Nodes = n
		if dn, rn := c.demandOn(pj, &s, p, feas, alt); rn == "" {
			c.growListed(&dn, pj, p, feas, alt) // growth.go
			return dn, ""
		}
	}
	if r == "" {
		c.growListed(&d, pj, p, feas, alt)
	}
	return d, r
}

// countBound reports whether r, why a demand cannot run, may go away on
// more nodes: no node can hold its share, or too few can.
func countBound(r Reason) bool {
	return r == ReasonPartitionConfig || r == ReasonPartitionNodeLimit || r == ReasonBadConstraints
}

// demandOn resolves shape sh of pj on p and checks it can ever run there.
func (c *cycle) demandOn(pj *PendingJob, sh *Shape, p *partInfo, feas *feasCache, alt int) (demand, Reason) {
	d, r := c.resolveDemand(sh, p, alt)
	if r == "" {
		r = maxCPUsReason(p, &d) // maxcpus.go
		c.userExclDemand(&d, pj) // userexcl.go
		c.switchDemand(&d, pj)   // switches.go
		c.contigDemand(&d, pj)   // contiguous.go
	}
	if r != "" {
		return demand{}, r
	}
	if d.unknownReq {
		return demand{}, ReasonBadConstraints
	}
	var ok bool
	if d.constrained() {
		k := keyOf(p.idx, &d)
		if r, ok = feas.constrained[k]; !ok {
			r = c.feasibility(&d, p)
			feas.constrained[k] = r
		}
	} else {
		k := feasKey{part: p.idx, n: d.n, g: d.g, c: d.c, lg: d.lg, lc: d.lc, m: d.m, lm: d.lm}
		if r, ok = feas.plain[k]; !ok {
			r = c.feasibility(&d, p)
			feas.plain[k] = r
		}
	}
	if r != "" {
		return demand{}, r
	}
	return d, ""
}

func accountAllowed(p *Partition, tenant string) bool {
	if slices.Contains(p.DenyAccounts, tenant) {
		return false
	}
	return len(p.AllowAccounts) == 0 || slices.Contains(p.AllowAccounts, tenant)
}

// feasibility counts the partition's nodes that could hold the request:
// none at all is PartitionConfig (or BadConstraints when only the
// constraints rule them out), too few is PartitionNodeLimit, too few that
// are up is ReqNodeNotAvail.
func (c *cycle) feasibility(d *demand, p *partInfo) Reason {
	if r := c.nodeListReason(d, p); r != "" {
		return r
	}
	var full, last, fullUp, lastUp, capOnly int
	count := func(ni int32, k int) {
		n := &c.nodes[ni]
		if n.gpus >= d.lg && n.cpus >= d.lc && n.mem >= d.lm {
			capOnly += k
		}
		if !d.nodeStatic(n, ni, d.lg, d.lc, d.lm) {
			return
		}
		last += k
		up := n.schedulable()
		if up {
			lastUp += k
		}
		if d.nodeStatic(n, ni, d.g, d.c, d.m) {
			full += k
			if up {
				fullUp += k
			}
		}
	}
	if classes := c.classesOf(p); classes != nil && len(d.exclude) == 0 {
		for _, cl := range classes {
			count(cl.rep, cl.count)
		}
	} else {
		for _, ni := range p.nodes {
			count(ni, 1)
		}
	}
	switch {
	case last == 0 && capOnly > 0, !c.countsFeasible(d, p):
		return ReasonBadConstraints
	case d.contig && last > 0 && !c.contigPossible(d, p): // contiguous.go
		return ReasonBadConstraints
	case last == 0:
		return ReasonPartitionConfig
	case full < d.n-1 || last < d.n:
		return ReasonPartitionNodeLimit
	case fullUp < d.n-1 || lastUp < d.n:
		return c.unavailReason(p, d.n)
	}
	return ""
}

// unavailReason words, as the peer shows it, why too few of the
// partition's nodes that could hold a job of n nodes are up: some are up
// but fewer than n (ReasonNodesUnavailable, the text of Slurm's main
// scheduler), or else ReqNodeNotAvail naming the partition's nodes that
// are not up (select_nodes' text, which Slurm then keeps: it stops
// testing the job until a node comes back).
func (c *cycle) unavailReason(p *partInfo, n int) Reason {
	up := 0
	var down []string
	for _, ni := range p.nodes {
		if c.nodes[ni].schedulable() {
			up++
		} else {
			down = append(down, c.nodes[ni].name)
		}
	}
	switch {
	case up > 0 && up < n:
		return ReasonNodesUnavailable
	case len(down) == 0:
		return ReasonNodeReserved
	}
	return ReasonReqNodeNotAvail + Reason(reasonUnavailablePrefix+hostlist.Compress(down))
}

// nodeListReason checks the nodes named with -w: each must belong to the
// partition, fit the request and be up.
func (c *cycle) nodeListReason(d *demand, p *partInfo) Reason {
	var down []string
	for _, ni := range d.nodeList {
		n := &c.nodes[ni]
		if !slices.Contains(n.parts, p.idx) || !d.nodeStatic(n, ni, d.lg, d.lc, d.lm) {
			return ReasonBadConstraints
		}
		if _, excluded := slices.BinarySearch(d.exclude, ni); excluded {
			return ReasonBadConstraints
		}
		if !n.schedulable() {
			down = append(down, n.name)
		}
	}
	if len(down) > 0 {
		return ReasonReqNodeNotAvail + Reason(reasonUnavailablePrefix+hostlist.Compress(down))
	}
	return ""
}
