package controller

import (
	"context"
	"math"
	"slices"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// sshare's view (R4, R6, R7): for every tenant and user, the shares from
// tenants.conf, decayed usage as the scheduler bills it, and the classic
// fair-share factor the scheduler uses (pkg/sched priority.go:
// F = 2^(-UE/S) on a two-level tree); plus Loam's quota columns in GPUs:
// guarantee, in use, borrowed (use beyond the guarantee) and lent (the
// part of the tenant's idle guarantee that other tenants' borrowing
// draws, after the capacity nobody is guaranteed).

// UsageRow is one association's decayed usage: a tenant (User empty) or a
// user within it.
type UsageRow struct {
	Tenant, User   string
	GPUSec, CPUSec float64
}

// UsageReporter is implemented by engines that keep decayed usage
// (package schedengine); without it usage shows as zero.
type UsageReporter interface {
	Usage() []UsageRow
}

// shareInputs is what sshare's numbers are computed from, gathered under
// the lock.
type shareInputs struct {
	conf    *slurmconf.Config
	usage   []UsageRow
	ratio   float64 // GPU-seconds billed per CPU-second
	inUse   map[[2]string]int64
	cluster int64 // GPUs of the nodes not FUTURE
}

// handleShares is sshare.
func (c *Controller) handleShares(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var q api.SharesQuery
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	c.mu.RLock()
	in := c.shareInputs()
	now := unix(c.now())
	c.mu.RUnlock()
	rows := c.privateShares(id, computeShares(in)) // privatedata.go
	out := &api.SharesResponse{Now: now, Rows: []api.ShareRow{}, Private: c.hides(id, slurmconf.PrivateUsage)}
	for _, r := range rows {
		if shareSelected(&q, id, r) {
			out.Rows = append(out.Rows, r)
		}
	}
	return out, nil
}

// shareSelected filters as sshare does: -A accounts; -u users; user rows
// only with -a, -u, or for the caller's own user. Tenant rows stay with
// -u, as Slurm 22.05's account rows do.
func shareSelected(q *api.SharesQuery, id auth.Identity, r api.ShareRow) bool {
	if len(q.Accounts) > 0 && !slices.Contains(q.Accounts, r.Account) {
		return false
	}
	if r.User == "" {
		return true
	}
	switch {
	case len(q.Users) > 0:
		return slices.Contains(q.Users, r.User)
	case q.All:
		return true
	}
	return r.User == id.User
}

// shareInputs gathers usage and GPUs in use per association; callers hold
// c.mu.
func (c *Controller) shareInputs() shareInputs {
	in := shareInputs{conf: c.confNow().conf, inUse: map[[2]string]int64{}, ratio: 1}
	if ur, ok := c.eng.(UsageReporter); ok {
		in.usage = ur.Usage()
	}
	var cpus int64
	for i := range in.conf.Nodes {
		n := &in.conf.Nodes[i]
		if n.State == "FUTURE" {
			continue
		}
		cpus += int64(n.CPUs)
		in.cluster += int64(capOfNode(n).gpus)
	}
	if in.cluster > 0 && cpus > 0 {
		in.ratio = float64(in.cluster) / float64(cpus)
	}
	for _, r := range c.runningSet {
		g := int64(allocGPUs(r.St.Alloc))
		in.inUse[[2]string{r.St.Account, ""}] += g
		in.inUse[[2]string{r.St.Account, r.Req.UserName}] += g
	}
	return in
}

// computeShares builds sshare's rows: each tenant of tenants.conf, in
// file order, followed by its users in file order.
func computeShares(in shareInputs) []api.ShareRow {
	conf := in.conf
	bill := map[[2]string]float64{}
	tenantSeen := map[string]bool{}
	userSum := map[string]float64{}
	for _, u := range in.usage {
		v := max(u.GPUSec, 0) + max(u.CPUSec, 0)*in.ratio
		bill[[2]string{u.Tenant, u.User}] += v
		if u.User == "" {
			tenantSeen[u.Tenant] = true
		} else {
			userSum[u.Tenant] += v
		}
	}
	var weights, total float64
	for _, t := range conf.Tenants {
		weights += max(t.Weight, 0)
		if !tenantSeen[t.Name] {
			bill[[2]string{t.Name, ""}] = userSum[t.Name]
		}
		total += bill[[2]string{t.Name, ""}]
	}
	lent := lentGPUs(in)
	var out []api.ShareRow
	for i := range conf.Tenants {
		t := &conf.Tenants[i]
		tr := tenantShareRow(in, t, weights, total, bill)
		tr.Lent = lent[t.Name]
		out = append(out, tr)
		out = append(out, userShareRows(in, t, tr, total, bill)...)
	}
	return out
}

func tenantShareRow(in shareInputs, t *slurmconf.Tenant, weights, total float64, bill map[[2]string]float64) api.ShareRow {
	r := api.ShareRow{Account: t.Name, RawShares: t.Weight, Guarantee: max(t.Guarantee["gres/gpu"], 0),
		InUse: in.inUse[[2]string{t.Name, ""}], GrpTRES: t.GrpTRES.String()}
	if weights > 0 {
		r.NormShares = max(t.Weight, 0) / weights
	}
	u := bill[[2]string{t.Name, ""}]
	r.RawUsage = int64(math.Round(u))
	if total > 0 {
		r.NormUsage = u / total
	}
	r.EffectvUsage = r.NormUsage
	if r.NormShares > 0 {
		r.FairShare = math.Exp2(-r.EffectvUsage / r.NormShares)
	}
	r.Borrowed = max(r.InUse-r.Guarantee, 0)
	return r
}

// userShareRows are the user rows of tenant t: a user's effective usage
// charges it its share of the tenant's usage, as the scheduler does.
func userShareRows(in shareInputs, t *slurmconf.Tenant, tr api.ShareRow, total float64, bill map[[2]string]float64) []api.ShareRow {
	var users []*slurmconf.User
	var sum float64
	for i := range in.conf.Users {
		u := &in.conf.Users[i]
		if slices.Contains(u.Accounts, t.Name) {
			users = append(users, u)
			sum += userShareOf(u.Share)
		}
	}
	var out []api.ShareRow
	for _, u := range users {
		frac := userShareOf(u.Share) / sum
		r := api.ShareRow{Account: t.Name, User: u.Name, RawShares: u.Share, NormShares: frac,
			InUse: in.inUse[[2]string{t.Name, u.Name}], GrpTRES: u.GrpTRES.String()}
		uu := bill[[2]string{t.Name, u.Name}]
		r.RawUsage = int64(math.Round(uu))
		if total > 0 {
			r.NormUsage = uu / total
		}
		r.EffectvUsage = r.NormUsage + (tr.NormUsage-r.NormUsage)*frac
		if s := tr.NormShares * frac; s > 0 {
			r.FairShare = math.Exp2(-r.EffectvUsage / s)
		}
		out = append(out, r)
	}
	return out
}

func userShareOf(s float64) float64 {
	if s <= 0 {
		return 1
	}
	return s
}

// lentGPUs attributes the GPUs tenants borrow beyond their guarantees to
// lenders: first the capacity nobody is guaranteed, then each tenant's
// idle guarantee (up to its LendLimit) in proportion to what it can lend.
func lentGPUs(in shareInputs) map[string]int64 {
	conf := in.conf
	var borrowed, guaranteed int64
	lendable := map[string]int64{}
	var lendSum int64
	for _, t := range conf.Tenants {
		g := max(t.Guarantee["gres/gpu"], 0)
		use := in.inUse[[2]string{t.Name, ""}]
		guaranteed += g
		borrowed += max(use-g, 0)
		limit := g
		if l, ok := t.LendLimit["gres/gpu"]; ok && l != slurmconf.Unlimited {
			limit = min(l, g)
		}
		lendable[t.Name] = min(max(g-use, 0), limit)
		lendSum += lendable[t.Name]
	}
	fromLenders := max(borrowed-max(in.cluster-guaranteed, 0), 0)
	out := map[string]int64{}
	if fromLenders == 0 || lendSum == 0 {
		return out
	}
	for name, l := range lendable {
		out[name] = int64(math.Round(float64(min(fromLenders, lendSum)) * float64(l) / float64(lendSum)))
	}
	return out
}
