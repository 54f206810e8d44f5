package sched

import (
	"cmp"
	"math"
	"slices"
)

// Fair Tree is the fair-share algorithm of Slurm's priority/multifactor
// since 19.05 when PriorityFlags does not say NO_FAIR_TREE, so it is what a
// slurm.conf without PriorityFlags (the benchmark clusters', the peer's)
// runs. The Slurm baselines (PolicyEASY, PolicyFCFS) use it; Loam keeps the
// classic formula (fairshare in priority.go), whose factor depends only on
// an association's own usage and its tenant's.
//
// At every level of the tree, siblings are ranked by their level fair
// share LF = S / U: S is the association's shares over its siblings'
// shares, U its decayed usage over its parent's (U = 0 ranks first, S = 0
// last). The tree is walked depth first in that order, tenants then their
// users, and the k-th user reached of N gets the factor (N-k+1)/N; users
// with equal LF share a rank, and tenants with equal LF have their users
// merged and ranked together, as fair_tree.c does.

// ftUser is one user association while the tree is ranked.
type ftUser struct {
	tenant, user string
	lf           float64
}

// initFairTree ranks every user association the cycle knows: users in the
// Config and users with usage, pending or running jobs, in tenants of the
// Config. It fills prioCtx.fs, which fairshare then reads.
func (c *cycle) initFairTree() {
	pc := &c.prio
	users := c.knownUsers()
	total := 0
	for _, us := range users {
		total += len(us)
	}
	if total == 0 {
		return
	}
	type ftTenant struct {
		name string
		lf   float64
	}
	var tenants []ftTenant
	for name, ts := range pc.tenants {
		var u float64
		if pc.totalUsage > 0 {
			u = ts.usage / pc.totalUsage
		}
		tenants = append(tenants, ftTenant{name, levelFS(ts.share, u)})
	}
	slices.SortFunc(tenants, func(a, b ftTenant) int {
		if x := cmp.Compare(b.lf, a.lf); x != 0 {
			return x
		}
		return cmp.Compare(a.name, b.name)
	})
	rnt, rank := total, total
	for i := 0; i < len(tenants); {
		// Tenants tied on LF are merged: their users rank together.
		k := i + 1
		for k < len(tenants) && tenants[k].lf == tenants[i].lf {
			k++
		}
		var merged []ftUser
		for _, t := range tenants[i:k] {
			merged = append(merged, c.rankUsers(t.name, users[t.name])...)
		}
		slices.SortStableFunc(merged, func(a, b ftUser) int { return cmp.Compare(b.lf, a.lf) })
		for n, u := range merged {
			tied := n > 0 && merged[n-1].lf == u.lf
			if !tied {
				rank = rnt
			}
			pc.fs[assoc{u.tenant, u.user}] = float64(rank) / float64(total)
			rnt--
		}
		i = k
	}
}

// rankUsers returns a tenant's users with their level fair share, in the
// order of names (the caller sorts by LF, stably).
func (c *cycle) rankUsers(tenant string, names []string) []ftUser {
	ts := c.prio.tenants[tenant]
	out := make([]ftUser, 0, len(names))
	var shares float64
	for _, u := range names {
		shares += c.userShareOf(ts, u)
	}
	for _, u := range names {
		var s, usage float64
		if shares > 0 {
			s = c.userShareOf(ts, u) / shares
		}
		if ts.usage > 0 {
			usage = ts.userUsage[u] / ts.usage
		}
		out = append(out, ftUser{tenant: tenant, user: u, lf: levelFS(s, usage)})
	}
	return out
}

func (c *cycle) userShareOf(ts *tenantShare, user string) float64 {
	if s, ok := ts.userShares[user]; ok {
		return s
	}
	return 1
}

// levelFS is S/U: infinite without usage, 0 without shares.
func levelFS(s, u float64) float64 {
	switch {
	case s <= 0:
		return 0
	case u <= 0:
		return math.Inf(1)
	}
	return s / u
}

// knownUsers lists, per tenant of the Config, the users the cycle knows,
// sorted by name.
func (c *cycle) knownUsers() map[string][]string {
	seen := map[assoc]bool{}
	out := map[string][]string{}
	add := func(tenant, user string) {
		k := assoc{tenant, user}
		if c.prio.tenants[tenant] == nil || seen[k] {
			return
		}
		seen[k] = true
		out[tenant] = append(out[tenant], user)
	}
	for i := range c.cfg.Users {
		add(c.cfg.Users[i].Tenant, c.cfg.Users[i].Name)
	}
	for i := range c.snap.Usage {
		if u := &c.snap.Usage[i]; u.User != "" {
			add(u.Tenant, u.User)
		}
	}
	for i := range c.snap.Running {
		add(c.snap.Running[i].Tenant, c.snap.Running[i].User)
	}
	for i := range c.snap.Pending {
		add(c.snap.Pending[i].Tenant, c.snap.Pending[i].User)
	}
	for t := range out {
		slices.Sort(out[t])
	}
	return out
}
