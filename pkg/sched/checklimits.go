package sched

// limitChecker re-derives tenant and user usage from the snapshot and the
// plan's starts, independently of quota.go, and checks every start against
// the limits in Config.
type limitChecker struct {
	ck       *checker
	on       bool
	elastic  bool
	tenants  map[string]*Tenant
	users    map[assoc]*User
	tUse     map[string]tres
	tJobs    map[string]int64
	owned    map[string]int64
	borrowed map[string]int64
	uUse     map[assoc]tres
	uJobs    map[assoc]int64
	spare    int64 // GPUs nobody is guaranteed
}

func newLimitChecker(ck *checker) *limitChecker {
	l := &limitChecker{ck: ck, on: len(ck.cfg.Tenants) > 0, tenants: map[string]*Tenant{}, users: map[assoc]*User{},
		tUse: map[string]tres{}, tJobs: map[string]int64{}, owned: map[string]int64{}, borrowed: map[string]int64{},
		uUse: map[assoc]tres{}, uJobs: map[assoc]int64{}}
	l.elastic = l.on && ck.cfg.Policy == PolicyLoam
	var guaranteed, total int64
	for i := range ck.cfg.Tenants {
		t := &ck.cfg.Tenants[i]
		if l.tenants[t.Name] == nil {
			l.tenants[t.Name] = t
			guaranteed += max(t.Guarantee.GPU, 0)
		}
	}
	for i := range ck.cfg.Users {
		u := &ck.cfg.Users[i]
		if k := (assoc{u.Tenant, u.Name}); l.users[k] == nil {
			l.users[k] = u
		}
	}
	for i := range ck.snap.Nodes {
		if ck.snap.Nodes[i].State != NodeDown {
			total += int64(max(ck.snap.Nodes[i].GPUs, 0))
		}
	}
	l.spare = max(total-guaranteed, 0)
	for i := range ck.snap.Running {
		r := &ck.snap.Running[i]
		l.add(r.Tenant, r.User, r.Alloc)
	}
	return l
}

// add charges an allocation and returns what it added.
func (l *limitChecker) add(tenant, user string, alloc []NodeAlloc) (tres, int64, int64) {
	var use tres
	var own, bor int64
	for _, a := range alloc {
		use.g += int64(len(a.GPUs))
		use.c += int64(a.CPUs)
		use.m += a.MemMB
		use.n++
		for k := range a.GPUs {
			if k < len(a.Borrowed) && a.Borrowed[k] {
				bor++
			} else {
				own++
			}
		}
	}
	l.tUse[tenant] = l.tUse[tenant].add(use)
	l.tJobs[tenant]++
	l.owned[tenant] += own
	l.borrowed[tenant] += bor
	k := assoc{tenant, user}
	l.uUse[k] = l.uUse[k].add(use)
	l.uJobs[k]++
	return use, own, bor
}

func (l *limitChecker) start(pj *PendingJob, st Start) {
	use, own, bor := l.add(pj.Tenant, pj.User, st.Alloc)
	if !l.on {
		return
	}
	t := l.tenants[pj.Tenant]
	if t == nil {
		l.ck.fail("job %d of unknown tenant %q started", pj.ID, pj.Tenant)
		return
	}
	k := assoc{pj.Tenant, pj.User}
	umax, ujobs := l.userLimits(t, pj.User)
	tu, uu := l.tUse[pj.Tenant], l.uUse[k]
	l.within(pj.ID, "tenant jobs", l.tJobs[pj.Tenant], t.GrpJobs, 1)
	l.within(pj.ID, "user jobs", l.uJobs[k], ujobs, 1)
	l.within(pj.ID, "user GPUs", uu.g, umax.g, use.g)
	l.within(pj.ID, "user CPUs", uu.c, umax.c, use.c)
	l.within(pj.ID, "user memory", uu.m, umax.m, use.m)
	l.within(pj.ID, "user nodes", uu.n, umax.n, use.n)
	l.within(pj.ID, "tenant GPUs", tu.g, capOf(t.Cap.GPU, t.Guarantee.GPU, t.BorrowLimit.GPU), use.g)
	l.within(pj.ID, "tenant CPUs", tu.c, capOf(t.Cap.CPU, t.Guarantee.CPU, t.BorrowLimit.CPU), use.c)
	l.within(pj.ID, "tenant memory", tu.m, capOf(t.Cap.MemMB, t.Guarantee.MemMB, t.BorrowLimit.MemMB), use.m)
	l.within(pj.ID, "tenant nodes", tu.n, capOf(t.Cap.Node, t.Guarantee.Node, t.BorrowLimit.Node), use.n)
	if !l.elastic {
		if bor > 0 {
			l.ck.fail("job %d has borrowed GPUs under a policy without lending", pj.ID)
		}
		return
	}
	l.within(pj.ID, "owned GPUs", l.owned[pj.Tenant], max(t.Guarantee.GPU, 0), own)
	l.within(pj.ID, "borrowed GPUs", max(tu.g-max(t.Guarantee.GPU, 0), 0), t.BorrowLimit.GPU, bor)
	if bor > 0 {
		l.checkPool(pj.ID)
	}
}

// within fails when a start that added used brought value over limit.
func (l *limitChecker) within(id JobID, what string, value, limit, added int64) {
	if added > 0 && limit >= 0 && value > limit {
		l.ck.fail("job %d brings %s to %d, over the limit %d", id, what, value, limit)
	}
}

func (l *limitChecker) userLimits(t *Tenant, user string) (tres, int64) {
	m := tres{t.MaxPerUser.GPU, t.MaxPerUser.CPU, t.MaxPerUser.MemMB, t.MaxPerUser.Node}
	jobs := t.MaxJobsPerUser
	if u := l.users[assoc{t.Name, user}]; u != nil {
		pick := func(v, d int64) int64 {
			if v >= 0 {
				return v
			}
			return d
		}
		m = tres{pick(u.Max.GPU, m.g), pick(u.Max.CPU, m.c), pick(u.Max.MemMB, m.m), pick(u.Max.Node, m.n)}
		jobs = pick(u.MaxJobs, jobs)
	}
	return m, jobs
}

// checkPool fails when what tenants use beyond their guarantees exceeds
// what is lendable: the capacity nobody is guaranteed plus each tenant's
// idle guarantee up to its lend limit.
func (l *limitChecker) checkPool(id JobID) {
	pool, borrowed := l.spare, int64(0)
	for i := range l.ck.cfg.Tenants {
		t := &l.ck.cfg.Tenants[i]
		if l.tenants[t.Name] != t {
			continue
		}
		g := max(t.Guarantee.GPU, 0)
		idle := max(g-l.tUse[t.Name].g, 0)
		if t.LendLimit.GPU >= 0 {
			idle = min(idle, t.LendLimit.GPU)
		}
		pool += idle
		borrowed += max(l.tUse[t.Name].g-g, 0)
	}
	if borrowed > pool {
		l.ck.fail("job %d borrows beyond the lendable pool: %d borrowed, %d lendable", id, borrowed, pool)
	}
}
