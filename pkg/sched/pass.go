package sched

import "time"

// runPass considers every pending job once, in scheduling order: higher
// PriorityTier first, then higher priority, then lower job id. A job either
// starts (on its reservation, on resources held for a later reservation
// that it ends before, or on free resources), or waits with a reason; the
// first blocked jobs of each queue reserve (reserve.go) and urgent jobs or
// reclaiming lenders may preempt (preempt.go). Lower jobs keep being tried
// after a blocked one: that is backfill, and it is safe because what a
// reservation needs is held and only jobs that end before its planned
// start may use it.
func (c *cycle) runPass() {
	var deferred []int32
	for ji := range c.jobs {
		j := &c.jobs[ji]
		if c.deferrable(j) {
			deferred = append(deferred, int32(ji))
			continue
		}
		c.consider(j)
	}
	if len(deferred) == 0 {
		return
	}
	// Least work (GPU-minutes, or CPU-minutes) first, then priority order,
	// packed into one integer: the area in the high bits, the position
	// among the deferred jobs in the low ones.
	const posBits = 24
	keys := grow(c.scratch.area, len(deferred))
	c.scratch.area = keys
	for k, ji := range deferred {
		j := &c.jobs[ji]
		units := uint64(max(j.dem.totalG, 1))
		if j.dem.totalG == 0 {
			units = uint64(max(j.dem.totalC, 1))
		}
		minutes := uint64(max(j.limit, time.Minute) / time.Minute)
		if j.limit <= 0 {
			minutes = 1 << 20 // no limit: after every limited job
		}
		area := min(units*min(minutes, 1<<20), 1<<(64-posBits)-1)
		keys[k] = area<<posBits | uint64(k)
	}
	c.scratch.tmp = grow(c.scratch.tmp, len(keys))
	radixSort(keys, c.scratch.tmp)
	for _, key := range keys {
		c.consider(&c.jobs[deferred[key&(1<<posBits-1)]])
	}
}

// deferrable reports whether, under Loam, job j is a pure backfill
// candidate: a higher-priority job of its queue already waits for
// resources and j cannot reserve. Such jobs only fill what the
// reservations leave, so Loam tries them after the priority pass, smallest
// work first (SJF backfilling): short, small jobs fill the holes first,
// which cuts mean wait and slowdown, while the reservations, which go to
// jobs in priority order, and aging keep big jobs from starving.
func (c *cycle) deferrable(j *jobInfo) bool {
	if c.pol != PolicyLoam || j.reason != "" || j.resv >= 0 || j.prim < 0 {
		return false
	}
	p := &c.parts[j.prim]
	return p.blocked && p.cfg.Class != ClassUrgent && !c.mayReserve(j, false)
}

func (c *cycle) consider(j *jobInfo) {
	c.plan.Stats.Considered++
	if j.reason != "" {
		return
	}
	p := &c.parts[j.prim]
	if c.pol == PolicyFCFS && p.stopped {
		j.reason = ReasonPriority
		return
	}
	if c.pol == PolicyEASY {
		// Beyond bf_max_job_test backfill does not see the job: only
		// Slurm's main scheduler may start it, in priority order.
		if c.tested++; c.tested > c.cfg.Backfill.maxJobTest() && p.blocked {
			j.reason = c.waitReason(p, j)
			return
		}
	}
	if c.adv.byNode != nil {
		c.adv.job = c.advOf(j) // placement keeps to admin windows (advresv.go)
	}
	for j.starts < j.ntasks && c.startLicensed(j) { // licenses.go
	}
	switch {
	case j.reason != "" && j.poolWait && j.resv >= 0 && j.starts == 0:
		// Only the lendable pool stops the job; it refills as borrowers
		// end and lenders' demand is met. Dropping the reservation would
		// start its wait over (timeout clock, cool-down, its slot); holding
		// GPUs would keep lenders off their own quota. So it is parked:
		// kept, re-planned for its estimate, holding nothing.
		c.reserve(j, false)
		if j.resv >= 0 {
			c.releaseHolds(j.resv)
			c.resvs[j.resv].await = nil
		}
	case j.reason != "":
		if j.resv >= 0 && j.starts == 0 {
			// A limit, not the cluster, stops the job: holding resources
			// for it would only idle them.
			c.dropResv(j.resv, DropGone, nil, time.Time{})
		}
	case j.starts == 0:
		c.blocked(j)
	case j.starts < j.arrayTasks && j.starts == j.arrayRoom:
		j.reason = ReasonJobArrayTaskLimit
	case j.starts < j.arrayTasks:
		j.reason = c.waitReason(p, j)
	}
	c.licAfter(j) // licenses.go
}

// tasks is how many starts the job may get now: one, or for an array as
// many tasks as are pending, bounded by its throttle.
func (j *jobInfo) tasks() int {
	n := max(j.p.ArrayTasks, 1)
	if j.p.ArrayRoom > 0 {
		n = min(n, j.p.ArrayRoom)
	}
	return n
}

// tryStart places and starts the job (or one array task) in its first
// partition that admits and fits it. It sets j.reason when a limit, not the
// lack of resources, stops it.
func (c *cycle) tryStart(j *jobInfo) bool {
	end := after(c.now, j.limit)
	var limit Reason
	var never, pool bool
	for k := -1; k < len(j.alts); k++ {
		part, d, own := j.prim, j.dem, j.resv
		if k >= 0 {
			part, d, own = j.alts[k].part, &j.alts[k].dem, -1
		}
		w := c.want(part, d)
		owned, r, nev := c.admit(j.as, w)
		if r != "" {
			if limit == "" {
				limit, never, pool = r, nev, r == reasonPool
			}
			continue
		}
		// A lender runs wholly on its own guarantee: every GPU it takes
		// (a whole node's for an exclusive job) is owned.
		c.lender = c.quota.elastic && w.g > 0 && owned >= w.g && j.waited >= lenderPatience
		if c.pol == PolicyLoam && k < 0 && !c.parts[part].blocked && j.starts == 0 && d.n > 1 && j.p.Restarts == 0 {
			// A gang at the head of its queue (see heads). Not a requeued
			// one: its age counts from submission, run time included, so
			// a preempted borrower would take, the moment it is requeued,
			// what a younger gang has gathered for hours, push that
			// reservation's start back until it times out, and leave the
			// GPUs it held idle for nothing.
			c.headPos, c.headPart, c.headWaited = j.pos, part, j.waited
		}
		// A preferred, wider or grown shape holds other GPUs than d: the
		// GPUs owned are those its own admission counts.
		picks, wideOwned := c.placePreferred(j, part, d, end, own) // prefer.go
		if picks == nil {
			picks, wideOwned = c.placeWide(j, part, d, end, own)
		}
		if picks != nil {
			owned = wideOwned
		} else {
			picks = c.place(part, d, end, own)
		}
		if picks == nil && len(d.grown) > 0 {
			picks, owned = c.placeGrown(j, part, d, end, own) // growth.go
		}
		c.lender, c.headPos = false, -1
		if picks != nil {
			c.commitStart(j, part, picks, owned)
			return true
		}
		limit, never, pool = "", false, false // resources, not a limit, are what is missing
	}
	if pool {
		limit = ReasonAssocGrpGRES
	}
	if limit != "" {
		j.reason, j.noEst, j.poolWait = limit, never && j.starts == 0, pool
	}
	return false
}

// placeWide places d's wider shape (-N's maximum) when the job's limits
// allow it and its nodes are free now, with the GPUs of it owned; nil
// otherwise.
func (c *cycle) placeWide(j *jobInfo, part int32, d *demand, end tick, own int32) ([]pick, int64) {
	if d.wide == nil {
		return nil, 0
	}
	return c.placeAdmitted(j, part, d.wide, end, own)
}

// placeAdmitted places d when the job's limits allow it, with the GPUs of
// it owned; nil otherwise.
func (c *cycle) placeAdmitted(j *jobInfo, part int32, d *demand, end tick, own int32) ([]pick, int64) {
	owned, r, _ := c.admit(j.as, c.want(part, d))
	if r != "" {
		return nil, 0
	}
	return c.place(part, d, end, own), owned
}

// want is the TRES a request counts against limits. An exclusive job is
// charged whole nodes of the partition's largest size, so the check holds
// whichever nodes it gets.
func (c *cycle) want(part int32, d *demand) tres {
	p := &c.parts[part]
	if d.excl {
		return tres{int64(d.n * p.maxGPUs), int64(d.n * p.maxCPUs), int64(d.n) * p.maxMem, int64(d.n)}
	}
	mem := d.m*int64(d.n-1) + d.lm
	if d.memWhole {
		mem = int64(d.n) * p.maxMem // whichever nodes it gets, as for --exclusive
	}
	return tres{int64(d.totalG), int64(d.totalC), mem, int64(d.n)}
}

// commitStart applies a placement: the job (or task) runs from now until
// now+limit in the working state, and a Start is added to the plan.
func (c *cycle) commitStart(j *jobInfo, part int32, picks []pick, owned int64) {
	p := &c.parts[part]
	st := Start{Job: j.id, Partition: p.cfg.Name, Reserved: j.resv >= 0}
	left := owned
	for _, pk := range picks {
		n := &c.nodes[pk.node]
		a := NodeAlloc{Node: n.name, CPUs: pk.cpus, MemMB: pk.mem, GPUs: pk.gpus}
		if c.quota.elastic && len(pk.gpus) > 0 {
			a.Borrowed = make([]bool, len(pk.gpus))
			for i := range a.Borrowed {
				a.Borrowed[i] = left <= 0
				left--
			}
		}
		st.Alloc = append(st.Alloc, a)
	}
	ri := c.addRun(runInfo{id: j.id, part: part, tenant: j.p.Tenant, user: j.p.User, prio: j.prio,
		start: c.now, end: after(c.now, j.limit), alloc: st.Alloc, started: true})
	for _, ni := range c.runs[ri].nodeIdx {
		c.refreshNode(ni)
	}
	c.charge(&c.runs[ri])
	c.userExclStarted(j) // userexcl.go
	if j.resv >= 0 {
		c.dropResv(j.resv, DropStarted, nil, time.Time{})
	}
	c.plan.Starts = append(c.plan.Starts, st)
	c.plan.Stats.Started++
	if c.parts[j.prim].blocked {
		c.plan.Stats.Backfilled++
	}
	j.starts++
}

// blocked handles a job that fits no partition now: FCFS stops its queue;
// otherwise it may preempt, and it holds or gets a reservation.
func (c *cycle) blocked(j *jobInfo) {
	p := &c.parts[j.prim]
	first := !p.blocked
	p.blocked = true
	if c.pol == PolicyFCFS {
		p.stopped = true
		j.reason = c.waitReason(p, j)
		return
	}
	p.blockedN++
	switch {
	case c.pol == PolicyEASY && c.tested > c.cfg.Backfill.maxJobTest():
		j.reason = c.waitReason(p, j)
		return
	case c.pol == PolicyEASY:
		c.easySlot(j, p)
	case c.pol == PolicyLoam && j.resv < 0 && p.depth <= p.resvs && p.blockedN <= p.depth && !c.cooling(j):
		// j is among the queue's top blocked jobs but a job of lower
		// priority holds the last slot: j takes precedence.
		if ri := c.displaceable(j); ri >= 0 {
			c.dropResv(ri, DropDisplaced, nil, time.Time{})
		}
	}
	claimed := c.tryPreempt(j)
	if j.resv >= 0 || claimed || (c.mayReserve(j, first) && !c.planFailed(j)) {
		c.reserve(j, claimed)
	}
	j.reason = c.waitReason(p, j)
}

// waitReason is Resources for the job that waits at the head of its queue
// (the first blocked one, or one holding a reservation or waiting for
// preempted resources) and Priority for the jobs behind it, as in Slurm.
func (c *cycle) waitReason(p *partInfo, j *jobInfo) Reason {
	if !p.headSet {
		p.headSet, p.head = true, j.id
	}
	if j.resv >= 0 || j.claim > 0 || p.head == j.id {
		return ReasonResources
	}
	return ReasonPriority
}

// mayReserve reports whether j may take a new reservation: its queue has a
// free slot (EASY: j is the queue's top blocked job) and, under Loam, its
// cool-down after a timed-out reservation is over.
func (c *cycle) mayReserve(j *jobInfo, first bool) bool {
	p := &c.parts[j.prim]
	switch c.pol {
	case PolicyEASY:
		return p.depth > p.resvs
	case PolicyLoam:
		if c.cooling(j) {
			return false
		}
		if p.depth <= p.resvs && p.blockedN < p.depth && c.displaceable(j) >= 0 {
			return true
		}
	}
	return p.depth > p.resvs
}

// cooling reports whether j is in its reservation cool-down.
func (c *cycle) cooling(j *jobInfo) bool {
	return j.resvAfter > c.now || j.coolUntil > c.now
}

// displaceable returns the reservation of j's queue held for the job of
// lowest priority below j, or -1.
func (c *cycle) displaceable(j *jobInfo) int32 {
	best := int32(-1)
	for ri, rv := range c.resvs {
		if rv.dead || rv.job == nil || rv.part != j.prim || rv.job.pos <= j.pos || (rv.claimed && c.pol == PolicyLoam) {
			continue
		}
		if best < 0 || rv.job.pos > c.resvs[best].job.pos {
			best = int32(ri)
		}
	}
	return best
}

// easySlot keeps, under EASY, reservations with the first blocked jobs of
// each partition (all of them unless bf_job_part_count_reserve bounds
// them): a job past the bound loses the one it held, and a job within it
// takes the slot of a lower-priority holder.
func (c *cycle) easySlot(j *jobInfo, p *partInfo) {
	switch {
	case p.blockedN > p.depth && j.resv >= 0:
		c.dropResv(j.resv, DropDisplaced, nil, time.Time{})
	case p.blockedN <= p.depth && j.resv < 0 && p.resvs >= p.depth:
		if ri := c.displaceable(j); ri >= 0 {
			c.dropResv(ri, DropDisplaced, nil, time.Time{})
		}
	}
}

// reserve re-plans j's reservation or creates one. A plan that cannot be
// made drops the reservation (its resources can never complete).
func (c *cycle) reserve(j *jobInfo, force bool) {
	pl, ok := c.planAny(j, j.resv)
	if ok && c.pol == PolicyEASY && (pl.unknown || pl.ps > c.now+int64(c.cfg.Backfill.window())) {
		// Slurm reserves nothing for a job that starts beyond bf_window.
		if j.resv >= 0 {
			c.dropResv(j.resv, DropWindow, nil, time.Time{})
		}
		return
	}
	if !ok {
		if j.resv >= 0 {
			c.dropResv(j.resv, DropInfeasible, nil, time.Time{})
		} else {
			c.planFails[c.planKey(j)] = true
		}
		return
	}
	if j.resv < 0 {
		if !force && !c.mayReserve(j, true) && c.pol != PolicyEASY {
			return
		}
		ri := int32(len(c.resvs))
		c.resvs = append(c.resvs, &resv{job: j, id: j.id, part: j.prim, created: c.now,
			limit: j.limit, strict: c.parts[j.prim].strict, tier: c.parts[j.prim].cfg.Tier})
		j.resv = ri
		c.parts[j.prim].resvs++
	}
	if force {
		c.resvs[j.resv].claimed = true
	}
	c.resvs[j.resv].borrows = c.borrowsFor(j)
	c.commitPlan(j.resv, pl)
}

// planFailed reports whether a request of this shape already found no
// plan in this cycle; plans only get harder as the cycle goes on.
func (c *cycle) planFailed(j *jobInfo) bool {
	return c.planFails[c.planKey(j)]
}

// planKey identifies the jobs whose reservation plans fail together: one
// shape, in the same admin reservation (or none).
func (c *cycle) planKey(j *jobInfo) failKey {
	k := keyOf(j.prim, j.dem)
	k.adv = c.adv.job
	return k
}
