package sched

import (
	"cmp"
	"slices"
)

// Preemption (R7, R11). Two kinds of jobs may preempt:
//
//   - a job of an urgent-class partition, against running jobs of
//     partitions with a lower PriorityTier whose PreemptMode is not off
//     (Slurm's preempt/partition_prio);
//   - under PolicyLoam, a lender's job that fits within its own guarantee,
//     against other tenants' jobs running on borrowed GPUs (reclaim), in
//     any queue but an urgent one.
//
// Under Loam a job preempts only when it cannot start soon anyway: when
// its reservation plan (by time limits) starts later than the victims'
// grace window would. EASY, like Slurm, preempts as soon as the job does
// not fit. Victims are ranked cheapest first: borrowed before owned (Loam),
// then lowest priority, fewest GPUs, least run time lost, lowest job id;
// never jobs inside PreemptExemptTime or already in a grace window. The
// smallest prefix of that ranking that makes the job placeable (placement
// planned with the victims' resources counted free) is taken, then any
// victim the placement does not need is spared, most expensive first. The
// beneficiary then holds a reservation and waits, reason Resources, until
// the grace windows end; its estimated start is the planned start. Under
// Loam it takes no more victims while the jobs in grace would make room
// for it (awaitsVictims).

// victims lists the running jobs j may preempt for reason why, cheapest
// first. The ranked list is built once per kind of preemptor in a cycle
// and filtered of jobs chosen since.
func (c *cycle) victims(j *jobInfo, why PreemptReason) []int32 {
	k := victimKey{part: j.prim, why: why}
	if why == PreemptReclaim {
		k.tenant = c.assocs[j.as].tenantID
	}
	ranked, ok := c.victimLists[k]
	if !ok {
		ranked = c.rankVictims(j, why)
		c.victimLists[k] = ranked
	}
	out := make([]int32, 0, len(ranked))
	for _, ri := range ranked {
		if !c.runs[ri].preempt {
			out = append(out, ri)
		}
	}
	return out
}

type victimKey struct {
	part   int32
	why    PreemptReason
	tenant int32 // assocInfo.tenantID, for reclaim
}

func (c *cycle) rankVictims(j *jobInfo, why PreemptReason) []int32 {
	jp := &c.parts[j.prim]
	var out []int32
	for ri := range c.runs {
		r := &c.runs[ri]
		if r.preempt || r.protected || r.started || r.part < 0 || !c.touches(r, jp.idx) {
			continue
		}
		vp := c.parts[r.part].cfg
		switch why {
		case PreemptUrgent:
			if vp.Tier >= jp.cfg.Tier || vp.PreemptMode == PreemptOff {
				continue
			}
		case PreemptReclaim:
			// Quota belongs to the tenant, not to a queue: a lender's
			// batch job takes its GPUs back from a borrower's normal job.
			// Only urgent work is not reclaimed from, except by urgent work.
			if r.tenant == j.p.Tenant || !c.overGuarantee(r.tenant) ||
				(vp.Class == ClassUrgent && jp.cfg.Class != ClassUrgent) {
				continue
			}
		}
		out = append(out, int32(ri))
	}
	// Urgent preemption takes jobs on borrowed GPUs first. Reclaim looks
	// at tenants, not labels: every job of a tenant above its guarantee
	// is a candidate, and which of them got the borrowed labels at start
	// is an accident of order (a big job that started last carries them
	// all), so cost decides.
	borrowedFirst := c.quota.elastic && why != PreemptReclaim
	slices.SortFunc(out, func(a, b int32) int {
		ra, rb := &c.runs[a], &c.runs[b]
		if borrowedFirst && (ra.borrowed > 0) != (rb.borrowed > 0) {
			return boolFirst(ra.borrowed > 0)
		}
		if why == PreemptReclaim {
			// A job that fits within its tenant's excess first: taking it
			// leaves the tenant at or above its guarantee, so its requeued
			// job will not reclaim back at once.
			if ea, eb := c.withinExcess(ra), c.withinExcess(rb); ea != eb {
				return boolFirst(ea)
			}
			// Borrowers of other tenants: priorities of different tenants
			// say little about each other, size and lost work do. Fewest
			// GPUs first: a job that just started on 512 GPUs has lost
			// little run, but it stops 512 GPUs and must wait for a gang
			// that big again, and jobs checkpoint, so the run lost is
			// bounded while the size is not. Then least run lost.
			if x := cmp.Compare(ra.gpus, rb.gpus); x != 0 {
				return x
			}
			if x := cmp.Compare(rb.start, ra.start); x != 0 {
				return x
			}
		}
		if x := cmp.Compare(ra.prio, rb.prio); x != 0 {
			return x
		}
		if x := cmp.Compare(ra.gpus, rb.gpus); x != 0 {
			return x
		}
		if x := cmp.Compare(rb.start, ra.start); x != 0 {
			return x // started last: least run time lost
		}
		return cmpID(ra.id, rb.id)
	})
	return out
}

// withinExcess reports whether preempting r leaves its tenant using at
// least its guarantee.
func (c *cycle) withinExcess(r *runInfo) bool {
	t := c.quota.tenants[r.tenant]
	return t != nil && t.borrowing() >= int64(r.gpus)
}

func (c *cycle) touches(r *runInfo, p int32) bool {
	for _, ni := range r.nodeIdx {
		if slices.Contains(c.nodes[ni].parts, p) {
			return true
		}
	}
	return false
}

// maxGrace is the longest grace window among the partitions j could take
// victims from: preempting cannot bring j's start closer than that.
func (c *cycle) maxGrace(j *jobInfo, why PreemptReason) tick {
	var g tick
	tier := c.parts[j.prim].cfg.Tier
	for i := range c.parts {
		p := c.parts[i].cfg
		if why == PreemptReclaim || (p.Tier < tier && p.PreemptMode != PreemptOff) {
			g = max(g, int64(p.GraceTime))
		}
	}
	return g
}

// worthPreempting reports whether j should preempt rather than wait for
// the plan pl (ok false: no plan at all).
func (c *cycle) worthPreempting(j *jobInfo, why PreemptReason, pl resvPlan, ok bool) bool {
	if c.pol != PolicyLoam {
		return true
	}
	return !ok || pl.unknown || pl.ps > c.now+c.maxGrace(j, why)
}

// maxPreemptTries bounds how many jobs may try to preempt in one cycle.
// Preemption is rare (urgent jobs are few) but each try walks the running
// jobs; the bound keeps a cycle fast when many urgent jobs queue at once.
// Jobs beyond it try again in the next cycle.
const maxPreemptTries = 8

// maxReprieve bounds the victim sets whose members are tried one by one
// for a reprieve.
const maxReprieve = 16

// preemptKey caches shapes that found no victims in this cycle: the set of
// possible victims only shrinks as the cycle goes on.
type preemptKey struct {
	shape  failKey
	why    PreemptReason
	tenant int32 // assocInfo.tenantID, for reclaim
}

// tryPreempt lets an urgent job, or under Loam a lender reclaiming its own
// guarantee, preempt. It reports whether victims were chosen.
func (c *cycle) tryPreempt(j *jobInfo) bool {
	p := &c.parts[j.prim]
	why := PreemptUrgent
	switch {
	case p.cfg.Class == ClassUrgent:
	case c.pol == PolicyLoam && c.quota.borrowed > 0 && c.fitsGuarantee(c.assocs[j.as].tenant, int64(j.dem.totalG)) &&
		j.waited >= c.cfg.ReclaimAfter:
		why = PreemptReclaim
	default:
		return false
	}
	key := preemptKey{shape: c.planKey(j), why: why} // planKey: the shape and its admin reservation
	if why == PreemptReclaim {
		key.tenant = c.assocs[j.as].tenantID
	}
	if c.preemptFails[key] || c.preemptTries >= maxPreemptTries {
		return false
	}
	cands := c.victims(j, why)
	if len(cands) == 0 {
		c.preemptFails[key] = true
		return false
	}
	c.preemptTries++
	if c.pol == PolicyLoam {
		if c.awaitsVictims(j) {
			return false
		}
		pl, ok := c.planAny(j, j.resv)
		if !c.worthPreempting(j, why, pl, ok) {
			return false
		}
	}
	if !c.preemptFor(j, why, cands) {
		c.preemptFails[key] = true
		return false
	}
	j.claim = j.dem.totalG
	if why == PreemptReclaim {
		c.claimGuarantee(j.p.Tenant, int64(j.dem.totalG))
	}
	return true
}

// awaitsVictims reports whether j already preempted (its reservation is
// claimed) and can be placed once the jobs now in their grace windows are
// gone: its need is being met, so it takes no more victims. Its
// reservation's plan, by time limits, may lie far off all the while: a
// reservation plans only on what no other reservation holds, while the
// placement that chose the victims may use held GPUs it ends before (a
// lender in a low tier reclaiming from a busy one), so without this the
// job would find its plan late, and preempt again, in every cycle of its
// victims' grace. Once they have left and it still cannot be placed, the
// need is new and it may preempt again.
func (c *cycle) awaitsVictims(j *jobInfo) bool {
	if j.resv < 0 || !c.resvs[j.resv].claimed {
		return false
	}
	var grace []int32
	for ri := range c.runs {
		if r := &c.runs[ri]; r.preempt && !r.started {
			grace = append(grace, int32(ri))
		}
	}
	return len(grace) > 0 && c.placeFreeing(j, grace) != nil
}

// preemptFor chooses victims for j and marks them; it reports whether any
// were chosen. Candidates are added cheapest first while counting, per
// node, what j could use with them gone; once enough nodes would fit, the
// placement is planned for real with them gone, and only the candidates on
// the nodes it picks are kept, then spared where the placement still works.
func (c *cycle) preemptFor(j *jobInfo, why PreemptReason, cands []int32) bool {
	pot := c.newPotential(j)
	var prefix []int32
	freed := c.scratch.freed[:0]
	end := after(c.now, j.limit)
	defer func() {
		c.reoccupy(prefix, freed)
		c.scratch.freed = freed[:0]
	}()
	for _, ri := range cands {
		fitting := pot.add(c, ri) // before vacating: it counts ri's GPUs
		prefix = append(prefix, ri)
		freed = c.vacate(ri, freed)
		if fitting < j.dem.n {
			continue
		}
		picks := c.placeSearch(j.prim, j.dem, end, j.resv)
		if picks == nil {
			if pot.verified++; pot.verified > 8 {
				return false
			}
			continue
		}
		c.reoccupy(prefix, freed)
		chosen := c.onPicks(prefix, picks)
		prefix, freed = nil, freed[:0]
		// Spare what the placement does not need, most expensive first.
		// Each try re-plans the placement, so very large sets (a big job
		// taking many nodes) keep all the victims on its nodes.
		for i := len(chosen) - 1; i >= 0 && len(chosen) > 1 && len(chosen) <= maxReprieve; i-- {
			without := append(slices.Clone(chosen[:i]), chosen[i+1:]...)
			if c.placeFreeing(j, without) != nil {
				chosen = without
			}
		}
		for _, v := range chosen {
			c.markVictim(v, j, why)
		}
		return true
	}
	return false
}

// potential tracks, per node, what job j could use if the candidates added
// so far were gone, and how many nodes would then fit one node of j.
type potential struct {
	j        *jobInfo
	g, cpus  map[int32]int
	mem      map[int32]int64
	fitting  int
	verified int
}

func (c *cycle) newPotential(j *jobInfo) *potential {
	return &potential{j: j, g: map[int32]int{}, cpus: map[int32]int{}, mem: map[int32]int64{}}
}

// add counts run ri as gone and returns how many nodes would fit.
func (pt *potential) add(c *cycle, ri int32) int {
	d := pt.j.dem
	end := after(c.now, pt.j.limit)
	tier := c.parts[pt.j.prim].cfg.Tier
	for _, ni := range c.runs[ri].nodeIdx {
		n := &c.nodes[ni]
		if !n.schedulable() || !slices.Contains(n.parts, pt.j.prim) || !d.nodeStatic(n, ni, d.g, d.c, d.m) {
			continue
		}
		if c.adv.byNode != nil && !c.advAllows(ni, end) {
			continue // an admin reservation's window: preempting here frees nothing for it
		}
		if _, seen := pt.g[ni]; !seen {
			free := 0
			for s := n.base; s < n.base+n.gpus; s++ {
				if c.gpuUsable(s, pt.j.resv, end, tier) {
					free++
				}
			}
			pt.g[ni] = free
			pt.cpus[ni], pt.mem[ni] = c.nodeCPUFree(n, pt.j.resv, end, tier)
		}
		before := pt.fits(ni, n)
		for _, nr := range n.runs {
			if nr.r == ri {
				pt.cpus[ni] += nr.cpus
				pt.mem[ni] += nr.mem
			}
		}
		for s := n.base; s < n.base+n.gpus; s++ {
			if c.gpuOcc[s] == ri+1 && (c.gpuHold[s] == 0 || c.gpuHold[s]-1 == pt.j.resv) {
				pt.g[ni]++
			}
		}
		if !before && pt.fits(ni, n) {
			pt.fitting++
		}
	}
	return pt.fitting
}

func (pt *potential) fits(ni int32, n *nodeInfo) bool {
	d := pt.j.dem
	return pt.g[ni] >= d.g && pt.cpus[ni] >= d.c && pt.mem[ni] >= d.memOn(n, d.m)
}

// onPicks keeps the candidates that run on a picked node.
func (c *cycle) onPicks(prefix []int32, picks []pick) []int32 {
	var out []int32
	for _, ri := range prefix {
		if slices.ContainsFunc(c.runs[ri].nodeIdx, func(ni int32) bool {
			return slices.ContainsFunc(picks, func(p pick) bool { return p.node == ni })
		}) {
			out = append(out, ri)
		}
	}
	return out
}

// placeFreeing plans j's placement as if the given running jobs were gone.
// Nothing is changed.
func (c *cycle) placeFreeing(j *jobInfo, victims []int32) []pick {
	var freed []int
	for _, ri := range victims {
		freed = c.vacate(ri, freed)
	}
	picks := c.placeSearch(j.prim, j.dem, after(c.now, j.limit), j.resv)
	c.reoccupy(victims, freed)
	return picks
}

// vacate frees a running job's GPUs, CPUs and memory in the working state
// and appends the GPU slots it freed.
func (c *cycle) vacate(ri int32, freed []int) []int {
	r := &c.runs[ri]
	for _, ni := range r.nodeIdx {
		n := &c.nodes[ni]
		for _, nr := range n.runs {
			if nr.r == ri {
				n.allocC -= nr.cpus
				n.allocM -= nr.mem
			}
		}
		for s := n.base; s < n.base+n.gpus; s++ {
			if c.gpuOcc[s] == ri+1 {
				c.gpuOcc[s] = 0
				freed = append(freed, s, int(ri))
			}
		}
		c.refreshNode(ni)
	}
	return freed
}

// reoccupy undoes vacate; freed holds (slot, run) pairs.
func (c *cycle) reoccupy(victims []int32, freed []int) {
	for i := 0; i+1 < len(freed); i += 2 {
		c.gpuOcc[freed[i]] = int32(freed[i+1]) + 1
	}
	for _, ri := range victims {
		r := &c.runs[ri]
		for _, ni := range r.nodeIdx {
			n := &c.nodes[ni]
			for _, nr := range n.runs {
				if nr.r == ri {
					n.allocC += nr.cpus
					n.allocM += nr.mem
				}
			}
			c.refreshNode(ni)
		}
	}
}

// markVictim records a preemption and makes the victim's resources free at
// the end of its grace window for planning.
func (c *cycle) markVictim(ri int32, j *jobInfo, why PreemptReason) {
	r := &c.runs[ri]
	vp := c.parts[r.part].cfg
	grace := max(vp.GraceTime, 0)
	r.preempt = true
	r.end = min(r.end, c.now+int64(grace))
	mode := PreemptCancel
	if vp.PreemptMode != PreemptCancel && r.requeue {
		mode = PreemptRequeue
	}
	c.plan.Preemptions = append(c.plan.Preemptions, Preemption{Victim: r.id, Beneficiary: j.id,
		Reason: why, Mode: mode, Grace: grace})
	c.plan.Stats.Preempted++
}
