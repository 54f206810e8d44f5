package sched

import (
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/hostlist"
)

// jobInfo is a pending job as this cycle sees it.
type jobInfo struct {
	p      *PendingJob
	prim   int32 // partition the job is queued and prioritised in; -1 none
	dem    demand
	alts   []altPart // further partitions the job may run in
	limit  time.Duration
	prio   int64
	fac    PriorityFactors
	reason Reason
	noEst  bool  // can never run as things stand: no estimated start
	resv   int32 // reservation index, -1 none
	starts int
	est    tick
	claim  int // GPUs claimed by a reclaim or preemption in this cycle
	// poolWait: the limit in reason is the lendable pool (reasonPool).
	poolWait bool
	// coolUntil is the end of a cool-down that began in this cycle.
	coolUntil tick
	pos       int32 // position in scheduling order
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
	cands := c.candidateParts(pj)
	var first Reason
	passed := false
	for _, pi := range cands {
		d, r := c.checkPartition(pj, &c.parts[pi], feas)
		if first == "" && r != "" {
			first = r
		}
		if r != "" {
			continue
		}
		if !passed {
			passed = true
			j.prim, j.dem = pi, d
		} else {
			j.alts = append(j.alts, altPart{part: pi, dem: d})
		}
	}
	if j.prim < 0 && len(cands) > 0 {
		j.prim = cands[0]
	}
	j.limit = c.effectiveLimit(pj, j.prim)
	switch {
	case j.reason != "":
		j.noEst = true
	case len(cands) == 0:
		j.reason, j.noEst = ReasonPartitionConfig, true
	case !passed:
		j.reason, j.noEst = first, true
	case toTick(pj.Begin) > c.now:
		j.reason = ReasonBeginTime
	case pj.ArrayRoom == 0:
		j.reason = ReasonJobArrayTaskLimit
	}
}

// candidateParts lists the job's known partitions by PriorityTier, highest
// first, keeping the user's order among equal tiers (Slurm shows
// "-p batch,normal" as "normal,batch").
func (c *cycle) candidateParts(pj *PendingJob) []int32 {
	var out []int32
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
func (c *cycle) checkPartition(pj *PendingJob, p *partInfo, feas *feasCache) (demand, Reason) {
	if !p.cfg.Up {
		return demand{}, ReasonPartitionDown
	}
	if !accountAllowed(p.cfg, pj.Tenant) {
		return demand{}, ReasonAccountNotAllowed
	}
	if p.cfg.MaxTime > 0 && c.effectiveLimit(pj, p.idx) > p.cfg.MaxTime {
		return demand{}, ReasonPartitionTimeLimit
	}
	d, r := c.resolveDemand(&pj.Shape, p)
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
	for _, ni := range p.nodes {
		n := &c.nodes[ni]
		if n.gpus >= d.lg && n.cpus >= d.lc && n.mem >= d.lm {
			capOnly++
		}
		if !d.nodeStatic(n, ni, d.lg, d.lc, d.lm) {
			continue
		}
		last++
		up := n.schedulable()
		if up {
			lastUp++
		}
		if d.nodeStatic(n, ni, d.g, d.c, d.m) {
			full++
			if up {
				fullUp++
			}
		}
	}
	switch {
	case last == 0 && capOnly > 0:
		return ReasonBadConstraints
	case last == 0:
		return ReasonPartitionConfig
	case full < d.n-1 || last < d.n:
		return ReasonPartitionNodeLimit
	case fullUp < d.n-1 || lastUp < d.n:
		return ReasonReqNodeNotAvail
	}
	return ""
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
