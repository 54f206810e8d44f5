package sched

import (
	"cmp"
	"math"
	"slices"
)

// Loading the pending jobs. At 50,000 jobs this is a fifth of a cycle, so
// it avoids per-job hashing and sorting where it can: requests that
// resolve alike are resolved once (feasCache.parts), (tenant, user) pairs
// are interned into slice indexes, ids are indexed by a sorted slice
// rather than a map, and scheduling order is a radix sort. The jobs are
// then laid out in scheduling order, so that the passes over them, which
// go in that order, read memory sequentially.

// assocInfo is one (tenant, user) pair of the pending jobs, resolved once.
type assocInfo struct {
	key    assoc
	tenant *tenantQuota // nil: the tenant is not in the Config
	user   *userQuota   // created on first use, as cycle.user does
	fs     float64      // fair-share factor, once fsDone
	fsDone bool
	// tenantID numbers the tenant among the pending jobs' tenants.
	tenantID int32
}

// internAssoc returns the index of the pair in c.assocs.
func (c *cycle) internAssoc(tenant, user string) int32 {
	k := assoc{tenant, user}
	if i, ok := c.assocIdx[k]; ok {
		return i
	}
	i := int32(len(c.assocs))
	t, ok := c.tenantIdx[tenant]
	if !ok {
		t = int32(len(c.tenantIdx))
		c.tenantIdx[tenant] = t
	}
	c.assocs = append(c.assocs, assocInfo{key: k, tenant: c.quota.tenants[tenant], tenantID: t})
	c.assocIdx[k] = i
	return i
}

// userOf is c.user for an interned pair.
func (c *cycle) userOf(as int32) *userQuota {
	a := &c.assocs[as]
	if a.user == nil {
		a.user = c.user(a.key.tenant, a.key.user)
	}
	return a.user
}

// fairshareOf is c.fairshare for an interned pair.
func (c *cycle) fairshareOf(as int32) float64 {
	a := &c.assocs[as]
	if !a.fsDone {
		a.fs, a.fsDone = c.fairshare(a.key.tenant, a.key.user), true
	}
	return a.fs
}

// jobIndex finds a pending job by id: id<<32 | index in cycle.jobs,
// sorted, one entry per id (the first in the Snapshot).
type jobIndex []uint64

func (x jobIndex) lookup(id JobID) (int32, bool) {
	i, _ := slices.BinarySearch(x, uint64(id)<<32)
	if i < len(x) && JobID(x[i]>>32) == id {
		return int32(uint32(x[i])), true
	}
	return 0, false
}

// loadJobs classifies and prioritises the pending jobs and lays them out
// in scheduling order. It returns the jobs' index by id.
func (c *cycle) loadJobs() jobIndex {
	pending := c.snap.Pending
	jobs := grow(c.scratch.spare, len(pending))
	c.assocIdx = make(map[assoc]int32, 64)
	ids := c.indexIDs()
	c.facs = grow(c.scratch.facs, len(pending))
	c.scratch.facs = c.facs
	c.tenantIdx = make(map[string]int32, 16)
	feas := &feasCache{plain: map[feasKey]Reason{}, constrained: map[failKey]Reason{},
		byShape: map[plainKey]*partsResult{}, gpuTypes: map[string]int32{}}
	for i := range c.parts {
		p := c.parts[i].cfg
		feas.accounts = feas.accounts || len(p.AllowAccounts) > 0 || len(p.DenyAccounts) > 0
	}
	for i := range pending {
		pj := &pending[i]
		j := &jobs[i]
		*j = jobInfo{p: pj, id: pj.ID, idx: int32(i), arrayTasks: pj.ArrayTasks, arrayRoom: pj.ArrayRoom,
			as: c.internAssoc(pj.Tenant, pj.User), waited: c.waited(pj), begin: toTick(pj.Begin),
			resvAfter: toTick(pj.ReserveAfter)}
		j.ntasks = j.tasks()
		if c.dup[i] {
			j.reason, j.noEst, j.prim, j.resv, j.dem = ReasonBadConstraints, true, -1, -1, &demand{}
			c.facs[i] = PriorityFactors{}
			continue // a second entry with one id is never scheduled
		}
		c.classify(j, feas)
		c.computePriority(j)
	}
	c.jobs = jobs
	keys := c.orderKeys()
	// Lay the jobs out in scheduling order.
	out := grow(c.scratch.jobs, len(jobs))
	pos := grow(c.scratch.pos, len(jobs))
	for k, key := range keys {
		out[k] = jobs[key.idx]
		out[k].pos = int32(k)
		pos[key.idx] = int32(k)
	}
	c.scratch.jobs, c.scratch.spare, c.scratch.pos = out, jobs, pos
	c.jobs = out
	for i, x := range ids {
		ids[i] = x&^math.MaxUint32 | uint64(uint32(pos[uint32(x)]))
	}
	return ids
}

// indexIDs sorts the pending jobs' ids and marks, in c.dup, every entry
// after the first with an id already seen.
func (c *cycle) indexIDs() jobIndex {
	pending := c.snap.Pending
	ids := grow(c.scratch.ids, len(pending))
	sorted := true
	for i := range pending {
		ids[i] = uint64(pending[i].ID)<<32 | uint64(i)
		sorted = sorted && (i == 0 || ids[i-1] < ids[i])
	}
	if !sorted {
		c.scratch.tmp = grow(c.scratch.tmp, len(ids))
		radixSort(ids, c.scratch.tmp)
	}
	c.dup = grow(c.scratch.dup, len(pending))
	clear(c.dup)
	out := ids[:0]
	for i, x := range ids {
		if i > 0 && x>>32 == ids[i-1]>>32 {
			c.dup[uint32(x)] = true
			continue
		}
		out = append(out, x)
	}
	c.scratch.ids, c.scratch.dup = ids, c.dup
	return out
}

// orderKey is what scheduling order sorts on: tier descending (as a rank:
// 0 is the highest tier), then priority descending and job id ascending,
// packed into key.
type orderKey struct {
	key  uint64
	idx  int32
	rank int32
}

// noTier is the tier of jobs without a known partition: after all others.
const noTier = -1 << 30

// orderKeys returns the jobs' keys in scheduling order.
func (c *cycle) orderKeys() []orderKey {
	// Rank the tiers, highest first.
	tiers := make([]int, 0, len(c.parts)+1)
	tiers = append(tiers, noTier)
	for i := range c.parts {
		tiers = append(tiers, c.parts[i].cfg.Tier)
	}
	desc := func(a, b int) int { return cmp.Compare(b, a) }
	slices.SortFunc(tiers, desc)
	tiers = slices.Compact(tiers)
	rankOf := func(t int) int32 {
		r, _ := slices.BinarySearchFunc(tiers, t, desc)
		return int32(r)
	}
	partRank := make([]int32, len(c.parts))
	for i := range c.parts {
		partRank[i] = rankOf(c.parts[i].cfg.Tier)
	}
	noRank := rankOf(noTier)
	fill := func(keys []orderKey) {
		for i := range c.jobs {
			j := &c.jobs[i]
			rank := noRank
			if j.prim >= 0 {
				rank = partRank[j.prim]
			}
			// Priority (at most MaxUint32) descending, then id ascending,
			// in one integer.
			keys[i] = orderKey{rank: rank, key: uint64(math.MaxUint32-j.prio)<<32 | uint64(j.id), idx: int32(i)}
		}
	}
	c.scratch.keys = grow(c.scratch.keys, len(c.jobs))
	keys := c.scratch.keys
	fill(keys)
	c.scratch.tmpKeys = grow(c.scratch.tmpKeys, len(keys))
	if sortOrderKeys(keys, c.scratch.tmpKeys, len(tiers)) {
		return keys
	}
	// Two entries share tier, priority and id (a duplicate id): the
	// comparison sort decides their order, as it always has.
	fill(keys)
	slices.SortFunc(keys, func(a, b orderKey) int {
		if a.rank != b.rank {
			return cmp.Compare(a.rank, b.rank)
		}
		return cmp.Compare(a.key, b.key)
	})
	return keys
}
