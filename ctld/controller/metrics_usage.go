package controller

import (
	"cmp"
	"slices"

	"github.com/loamhpc/loam/ctld/web"
	"github.com/loamhpc/loam/pkg/cluster"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// usageNow is the live state summed up once for metrics, history samples
// and the dashboard.
type usageNow struct {
	jobs     map[jobKey]int
	gpus     web.Usage
	nodes    web.NodeCounts
	tenants  []web.TenantUsage // sorted by name
	resvHeld map[string]int
	parts    map[string]*partNow
}

type jobKey struct{ state, partition string }

// partNow is one partition now.
type partNow struct {
	pending, running int
	gpus, gpusUsed   int
	maxPos           int // the last pending job's queue position
}

// usageLocked sums the live state; the caller holds c.mu (read or write).
// It costs one pass over jobs and one over nodes.
func (c *Controller) usageLocked() *usageNow {
	cs := c.confNow()
	u := &usageNow{jobs: map[jobKey]int{}, resvHeld: map[string]int{}, parts: map[string]*partNow{}}
	for _, p := range cs.conf.Partitions {
		u.parts[p.Name] = &partNow{}
	}
	nodeGPUs := c.nodeGPUCounts()
	for _, n := range c.nodesByName() {
		c.countNode(u, n, nodeGPUs[n.name])
	}
	tenants := map[string]*web.TenantUsage{}
	for _, t := range cs.conf.Tenants {
		tenants[t.Name] = &web.TenantUsage{Name: t.Name, Guarantee: int(max(t.Guarantee["gres/gpu"], 0))}
	}
	for _, r := range c.jobs {
		c.countJob(u, r, tenants)
	}
	for _, id := range c.resvIDs {
		if r := c.jobs[id]; r != nil && r.resv != nil {
			u.resvHeld[r.resv.Partition]++
		}
	}
	u.tenants = lend(tenants, cs.conf.Tenants)
	return u
}

// nodeGPUCounts maps node names to their configured GPUs.
func (c *Controller) nodeGPUCounts() map[string]int {
	out := map[string]int{}
	for _, n := range cluster.Nodes(c.confNow().conf) {
		out[n.Name] = n.GPUs
	}
	return out
}

func (c *Controller) countNode(u *usageNow, n *nodeRec, gpus int) {
	used := 0
	for id := range n.jobs {
		if r := c.jobs[id]; r != nil {
			for _, a := range r.St.Alloc {
				if a.Node == n.name {
					used += len(a.GPUs)
				}
			}
		}
	}
	u.nodes.Total++
	u.gpus.Total += gpus
	u.gpus.Alloc += used
	switch n.schedState() {
	case NodeDown:
		u.nodes.Down++
		u.gpus.Down += gpus - used
	case NodeDrain:
		u.nodes.Drain++
		u.gpus.Down += gpus - used
	default:
		if len(n.jobs) > 0 {
			u.nodes.Busy++
		} else {
			u.nodes.Idle++
		}
		u.gpus.Idle += gpus - used
	}
	for _, p := range c.confNow().partsOfNode[n.name] {
		if pn := u.parts[p]; pn != nil {
			pn.gpus += gpus
			pn.gpusUsed += used
		}
	}
}

func (c *Controller) countJob(u *usageNow, r *jobRecord, tenants map[string]*web.TenantUsage) {
	part := r.St.Partition
	if r.pending() {
		part = queuePartition(r)
	}
	n := weight(r)
	u.jobs[jobKey{string(r.St.State), part}] += n
	pn := u.parts[part]
	switch {
	case pn == nil:
	case r.pending():
		pn.pending += n
		pn.maxPos = max(pn.maxPos, r.plan.Position)
	case r.running():
		pn.running++
	}
	if !r.running() {
		return
	}
	t := tenants[r.St.Account]
	if t == nil {
		t = &web.TenantUsage{Name: r.St.Account}
		tenants[r.St.Account] = t
	}
	for _, a := range r.St.Alloc {
		t.Held += len(a.GPUs)
		for i := range a.GPUs {
			if i < len(a.Borrowed) && a.Borrowed[i] {
				t.Borrowed++
			} else {
				t.Owned++
			}
		}
	}
}

// lend attributes the borrowed GPUs to the tenants whose idle guarantee
// they use, in proportion to each tenant's idle lendable guarantee (the
// scheduler labels a GPU borrowed, not from whom).
func lend(tenants map[string]*web.TenantUsage, conf []slurmconf.Tenant) []web.TenantUsage {
	borrowed, idle := 0, map[string]int{}
	total := 0
	for _, t := range tenants {
		borrowed += t.Borrowed
	}
	for _, ct := range conf {
		t := tenants[ct.Name]
		lendable := t.Guarantee
		if v, ok := ct.LendLimit["gres/gpu"]; ok && v >= 0 {
			lendable = min(lendable, int(v))
		}
		if free := min(t.Guarantee-t.Owned, lendable); free > 0 {
			idle[t.Name] = free
			total += free
		}
	}
	out := make([]web.TenantUsage, 0, len(tenants))
	for _, t := range tenants {
		if total > 0 {
			t.Lent = min(borrowed*idle[t.Name]/total, idle[t.Name])
		}
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b web.TenantUsage) int { return cmp.Compare(a.Name, b.Name) })
	return out
}
