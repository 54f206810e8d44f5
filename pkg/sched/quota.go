package sched

// quotaState tracks tenant and user usage against their limits while the
// cycle starts jobs (R6, R7).
//
// Under PolicyLoam GPUs are elastic: a tenant runs on its Guarantee first
// (GPUs labelled owned), then borrows (labelled borrowed) up to its
// BorrowLimit from a shared pool made of the capacity nobody is guaranteed
// plus every tenant's idle guarantee up to its LendLimit. The accounting
// uses what a tenant uses, not the labels its jobs got when they started:
// a tenant borrows max(0, used - guarantee) and lends what it leaves idle.
// Labels go stale (a tenant whose owned jobs end keeps its borrowed ones);
// usage does not. When a lender takes its guarantee back the pool can be
// over-drawn; then nobody borrows more, and the lender's blocked jobs
// reclaim borrowed GPUs (preempt.go). Under EASY and FCFS the limits are
// plain hard caps (Slurm's GrpTRES) and every GPU is labelled owned.
type quotaState struct {
	on           bool // Config has tenants: limits apply
	elastic      bool
	tenants      map[string]*tenantQuota
	users        map[assoc]*userQuota
	cfgUsers     map[assoc]*User
	unguaranteed int64
	lendSum      int64 // sum of tenants' lendable idle GPUs
	borrowed     int64 // sum of tenants' GPUs beyond their guarantees
}

type tres struct{ g, c, m, n int64 }

type tenantQuota struct {
	cfg      *Tenant
	used     tres
	claim    int64 // guarantee promised to this cycle's reclaiming jobs
	demand   int64 // GPUs its own waiting jobs want, not yet started
	jobs     int64
	cap      tres
	lendTerm int64
	firstEnd tick // earliest end of its running jobs, for estimates
}

type userQuota struct {
	used     tres
	jobs     int64
	max      tres
	maxJobs  int64
	firstEnd tick
}

// capOf resolves a hard cap: Cap if set, else Guarantee+BorrowLimit, else
// unlimited (-1).
func capOf(capv, guarantee, borrow int64) int64 {
	switch {
	case capv >= 0:
		return capv
	case borrow >= 0:
		return max(guarantee, 0) + borrow
	}
	return -1
}

func (c *cycle) initQuota() {
	q := &c.quota
	q.on = len(c.cfg.Tenants) > 0
	q.elastic = q.on && c.pol == PolicyLoam
	q.tenants = make(map[string]*tenantQuota, len(c.cfg.Tenants))
	q.users = make(map[assoc]*userQuota)
	q.cfgUsers = make(map[assoc]*User, len(c.cfg.Users))
	for i := range c.cfg.Users {
		u := &c.cfg.Users[i]
		if k := (assoc{u.Tenant, u.Name}); q.cfgUsers[k] == nil {
			q.cfgUsers[k] = u
		}
	}
	var guaranteed, clusterGPUs int64
	for i := range c.cfg.Tenants {
		t := &c.cfg.Tenants[i]
		if _, dup := q.tenants[t.Name]; dup {
			continue
		}
		q.tenants[t.Name] = &tenantQuota{cfg: t, cap: tres{
			g: capOf(t.Cap.GPU, t.Guarantee.GPU, t.BorrowLimit.GPU),
			c: capOf(t.Cap.CPU, t.Guarantee.CPU, t.BorrowLimit.CPU),
			m: capOf(t.Cap.MemMB, t.Guarantee.MemMB, t.BorrowLimit.MemMB),
			n: capOf(t.Cap.Node, t.Guarantee.Node, t.BorrowLimit.Node)}}
		guaranteed += max(t.Guarantee.GPU, 0)
	}
	for i := range c.nodes {
		if c.nodes[i].state != NodeDown {
			clusterGPUs += int64(c.nodes[i].gpus)
		}
	}
	q.unguaranteed = max(clusterGPUs-guaranteed, 0)
	for i := range c.runs {
		c.chargeRun(&c.runs[i])
	}
	c.relend()
}

// relend recomputes the lendable pool from scratch, in Config order.
func (c *cycle) relend() {
	q := &c.quota
	q.lendSum = 0
	for i := range c.cfg.Tenants {
		if t := q.tenants[c.cfg.Tenants[i].Name]; t != nil && t.cfg == &c.cfg.Tenants[i] {
			t.lendTerm = t.lendable()
			q.lendSum += t.lendTerm
		}
	}
}

// guarantee is the tenant's guaranteed GPUs.
func (t *tenantQuota) guarantee() int64 { return max(t.cfg.Guarantee.GPU, 0) }

// borrowing is how many GPUs the tenant uses beyond its guarantee.
func (t *tenantQuota) borrowing() int64 { return max(t.used.g-t.guarantee(), 0) }

// lendable is how many of the tenant's idle guaranteed GPUs others may
// use. Idle guarantee that the tenant's own waiting jobs want is not
// lent: it would only be reclaimed at once, killing the borrower's work
// (a lender's queued demand makes its quota used, not idle).
func (t *tenantQuota) lendable() int64 {
	idle := max(t.guarantee()-t.used.g-t.claim-t.demand, 0)
	if l := t.cfg.LendLimit.GPU; l >= 0 {
		idle = min(idle, l)
	}
	return idle
}

func (c *cycle) user(tenant, name string) *userQuota {
	k := assoc{tenant, name}
	if u := c.quota.users[k]; u != nil {
		return u
	}
	u := &userQuota{max: tres{-1, -1, -1, -1}, maxJobs: -1}
	if t := c.quota.tenants[tenant]; t != nil {
		d := &t.cfg.MaxPerUser
		u.max = tres{d.GPU, d.CPU, d.MemMB, d.Node}
		u.maxJobs = t.cfg.MaxJobsPerUser
	}
	if cu := c.quota.cfgUsers[k]; cu != nil {
		for _, f := range []struct {
			dst *int64
			v   int64
		}{{&u.max.g, cu.Max.GPU}, {&u.max.c, cu.Max.CPU}, {&u.max.m, cu.Max.MemMB}, {&u.max.n, cu.Max.Node}, {&u.maxJobs, cu.MaxJobs}} {
			if f.v >= 0 {
				*f.dst = f.v
			}
		}
	}
	c.quota.users[k] = u
	return u
}

// chargeRun adds a running or starting job to its tenant's and user's
// usage.
func (c *cycle) chargeRun(r *runInfo) {
	q := &c.quota
	if !q.on {
		return
	}
	use := tres{int64(r.gpus), int64(r.cpus), r.mem, int64(r.nodes)}
	if t := q.tenants[r.tenant]; t != nil {
		before := t.borrowing()
		t.used = t.used.add(use)
		t.jobs++
		t.firstEnd = earliest(t.firstEnd, r.end)
		q.borrowed += t.borrowing() - before
	}
	u := c.user(r.tenant, r.user)
	u.used = u.used.add(use)
	u.jobs++
	u.firstEnd = earliest(u.firstEnd, r.end)
}

func earliest(a, b tick) tick {
	if a == 0 || b < a {
		return b
	}
	return a
}

// limitFrees is the earliest time a job waiting for limit r may find its
// tenant's or user's usage lower: when the first of their jobs ends.
func (c *cycle) limitFrees(r Reason, as int32) tick {
	a := &c.assocs[as]
	switch r {
	case ReasonAssocGrpGRES, ReasonAssocGrpCPU, ReasonAssocGrpMem, ReasonAssocGrpNode, ReasonAssocGrpJobs:
		if a.tenant != nil {
			return a.tenant.firstEnd
		}
	case ReasonAssocMaxJobs, ReasonQOSMaxGRESPerUser, ReasonQOSMaxCPUPerUser, ReasonQOSMaxMemPerUser,
		ReasonQOSMaxNodePerUser:
		if u := c.quota.users[a.key]; u != nil {
			return u.firstEnd
		}
	}
	return 0
}

func (a tres) add(b tres) tres { return tres{a.g + b.g, a.c + b.c, a.m + b.m, a.n + b.n} }

// over reports whether used+want exceeds limit (negative: unlimited), and
// whether want alone does, so the job can never run under it.
func over(used, want, limit int64) (blocked, never bool) {
	if limit < 0 {
		return false, false
	}
	return used+want > limit, want > limit
}

// admit checks a job of want resources against the limits, in Slurm's
// order: job counts, per-user TRES, tenant TRES, then (Loam) borrowing.
// It returns how many of the GPUs are owned, or the reason it must wait
// and whether it could never run under these limits.
func (c *cycle) admit(as int32, want tres) (owned int64, r Reason, never bool) {
	q := &c.quota
	if !q.on {
		return want.g, "", false
	}
	t := c.assocs[as].tenant
	if t == nil {
		return 0, ReasonInvalidAccount, true
	}
	u := c.userOf(as)
	checks := []struct {
		used, want, limit int64
		r                 Reason
	}{
		{t.jobs, 1, t.cfg.GrpJobs, ReasonAssocGrpJobs},
		{u.jobs, 1, u.maxJobs, ReasonAssocMaxJobs},
		{u.used.g, want.g, u.max.g, ReasonQOSMaxGRESPerUser},
		{u.used.c, want.c, u.max.c, ReasonQOSMaxCPUPerUser},
		{u.used.m, want.m, u.max.m, ReasonQOSMaxMemPerUser},
		{u.used.n, want.n, u.max.n, ReasonQOSMaxNodePerUser},
		{t.used.g, want.g, t.cap.g, ReasonAssocGrpGRES},
		{t.used.c, want.c, t.cap.c, ReasonAssocGrpCPU},
		{t.used.m, want.m, t.cap.m, ReasonAssocGrpMem},
		{t.used.n, want.n, t.cap.n, ReasonAssocGrpNode},
	}
	for _, ck := range checks {
		if blocked, nev := over(ck.used, ck.want, ck.limit); blocked {
			return 0, ck.r, nev
		}
	}
	if !q.elastic {
		return want.g, "", false
	}
	return c.admitElastic(t, want.g)
}

// admitElastic splits g GPUs into owned (from the guarantee) and borrowed,
// and checks the borrowed part against the tenant's BorrowLimit and the
// pool. A tenant that has guarantee left never borrows: its own idle
// quota is counted out of the pool as it takes it. When lend limits are
// unlimited the pool is exactly the cluster's free capacity, so a job the
// pool cannot hold while the cluster has fewer free GPUs than it needs
// waits for resources (and may reserve), not for a limit.
func (c *cycle) admitElastic(t *tenantQuota, g int64) (int64, Reason, bool) {
	q := &c.quota
	own := min(g, max(t.guarantee()-t.used.g-t.claim, 0))
	b := g - own
	if b == 0 {
		return own, "", false
	}
	if bl := t.cfg.BorrowLimit.GPU; bl >= 0 && t.borrowing()+b > bl {
		return 0, ReasonAssocGrpGRES, g > t.guarantee()+bl
	}
	after := *t
	after.used.g += own
	pool := q.unguaranteed + q.lendSum - t.lendTerm + after.lendable()
	if q.borrowed+b > pool {
		if c.freeGPUs < g {
			return own, "", false
		}
		return 0, reasonPool, false
	}
	return own, "", false
}

// reasonPool is what admitElastic returns when only the lendable pool
// stops a job: unlike a hard cap it refills as borrowers end and lenders'
// demand is met, so a reservation the job holds is kept. Jobs see it as
// AssocGrpGRES.
const reasonPool Reason = "\x00pool"

// charge records a start.
func (c *cycle) charge(r *runInfo) {
	c.chargeRun(r)
	if t := c.quota.tenants[r.tenant]; t != nil && c.quota.elastic {
		t.demand = max(t.demand-int64(r.gpus), 0)
		c.quota.lendSum += t.lendable() - t.lendTerm
		t.lendTerm = t.lendable()
	}
}

// noteDemand records, before the pass, what each tenant's waiting jobs
// want, so that its idle guarantee is not lent away (see lendable).
func (c *cycle) noteDemand() {
	if !c.quota.elastic {
		return
	}
	for i := range c.jobs {
		j := &c.jobs[i]
		if j.reason != "" || j.prim < 0 {
			continue
		}
		// Only jobs that fit the guarantee could reclaim; bigger ones
		// borrow themselves and compete for the pool like anyone.
		if t := c.assocs[j.as].tenant; t != nil && t.used.g+int64(j.dem.totalG) <= t.guarantee() {
			t.demand += int64(j.dem.totalG)
		}
	}
	c.relend()
}

// claimGuarantee reserves g GPUs of a tenant's guarantee for a job that
// reclaims them, so that others stop borrowing them.
func (c *cycle) claimGuarantee(tenant string, g int64) {
	if t := c.quota.tenants[tenant]; t != nil {
		t.claim += g
		t.demand = max(t.demand-g, 0)
		c.quota.lendSum += t.lendable() - t.lendTerm
		t.lendTerm = t.lendable()
	}
}

// fitsGuarantee reports whether g more GPUs of tenant stay within what it
// is guaranteed, counting GPUs already claimed in this cycle.
func (c *cycle) fitsGuarantee(t *tenantQuota, g int64) bool {
	return c.quota.elastic && t != nil && g > 0 && t.used.g+t.claim+g <= t.guarantee()
}

// borrowsFor reports whether job j, started now, would run partly on
// borrowed quota.
func (c *cycle) borrowsFor(j *jobInfo) bool {
	t := c.assocs[j.as].tenant
	return c.quota.elastic && t != nil && t.used.g+t.claim+int64(j.dem.totalG) > t.guarantee()
}

// overGuarantee reports whether a tenant uses more than it is guaranteed,
// so that its jobs may be reclaimed.
func (c *cycle) overGuarantee(tenant string) bool {
	t := c.quota.tenants[tenant]
	return t != nil && t.borrowing() > 0
}
