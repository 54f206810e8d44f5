package sched

import (
	"math"
	"time"
)

// defaultMaxAge is Slurm's PriorityMaxAge default.
const defaultMaxAge = 7 * 24 * time.Hour

// prioCtx holds what every job's priority shares in one cycle.
type prioCtx struct {
	maxJobFactor int
	maxAge       time.Duration
	tenants      map[string]*tenantShare
	totalUsage   float64
	fs           map[assoc]float64
	// fairTree: fs holds Slurm's Fair Tree factors (fairtree.go) for
	// every known association; others get 0.
	fairTree bool
}

// assoc is a (tenant, user) pair, Slurm's association.
type assoc struct{ tenant, user string }

// tenantShare is one tenant's normalized share and usage, and its users'.
type tenantShare struct {
	share      float64 // S_t: weight over all weights
	usage      float64 // U_t: decayed usage over all usage
	userShares map[string]float64
	shareSum   float64
	userUsage  map[string]float64
}

// initPriority normalizes shares and usage once per cycle.
func (c *cycle) initPriority() {
	pc := &c.prio
	pc.maxAge = c.cfg.Priority.MaxAge
	if pc.maxAge <= 0 {
		pc.maxAge = defaultMaxAge
	}
	for i := range c.parts {
		pc.maxJobFactor = max(pc.maxJobFactor, c.parts[i].cfg.JobFactor)
	}
	pc.tenants = make(map[string]*tenantShare, len(c.cfg.Tenants))
	pc.fs = make(map[assoc]float64)
	var weights float64
	for i := range c.cfg.Tenants {
		t := &c.cfg.Tenants[i]
		if _, dup := pc.tenants[t.Name]; !dup {
			pc.tenants[t.Name] = &tenantShare{share: max(t.Weight, 0),
				userShares: map[string]float64{}, userUsage: map[string]float64{}}
			weights += max(t.Weight, 0)
		}
	}
	for _, ts := range pc.tenants {
		if weights > 0 {
			ts.share /= weights
		}
	}
	for i := range c.cfg.Users {
		u := &c.cfg.Users[i]
		if ts := pc.tenants[u.Tenant]; ts != nil {
			if _, dup := ts.userShares[u.Name]; !dup {
				ts.userShares[u.Name] = userShare(u.Share)
				ts.shareSum += userShare(u.Share)
			}
		}
	}
	c.loadUsage()
	if c.pol != PolicyLoam {
		pc.fairTree = true
		c.initFairTree()
	}
}

// userShare defaults a missing share to 1, as Slurm's Fairshare=1 default.
func userShare(s float64) float64 {
	if s <= 0 {
		return 1
	}
	return s
}

// loadUsage normalizes the snapshot's decayed usage. Usage is billed in
// GPU-seconds; CPU-only work is converted at the cluster's GPU/CPU ratio so
// that a CPU costs its share of a GPU node.
func (c *cycle) loadUsage() {
	pc := &c.prio
	var gpus int
	for i := range c.nodes {
		gpus += c.nodes[i].gpus
	}
	ratio := 1.0
	if gpus > 0 && c.totalC > 0 {
		ratio = float64(gpus) / float64(c.totalC)
	}
	tenantSeen := map[string]bool{}
	userSum := map[string]float64{}
	for _, u := range sortedUsage(c.snap.Usage) {
		ts := pc.tenants[u.Tenant]
		if ts == nil {
			continue
		}
		bill := max(u.GPUSec, 0) + max(u.CPUSec, 0)*ratio
		if u.User == "" {
			tenantSeen[u.Tenant] = true
			ts.usage += bill
		} else {
			ts.userUsage[u.User] += bill
			userSum[u.Tenant] += bill
		}
	}
	// Sum in Config order: float addition is not associative, and map
	// order would make the total differ from run to run.
	done := map[string]bool{}
	for i := range c.cfg.Tenants {
		name := c.cfg.Tenants[i].Name
		if done[name] {
			continue
		}
		done[name] = true
		ts := pc.tenants[name]
		if !tenantSeen[name] {
			ts.usage = userSum[name]
		}
		pc.totalUsage += ts.usage
	}
}

// fairshare is Slurm's classic fair-share factor on a two-level tree
// (tenants, then users): F = 2^(-UE/S) with S the user's normalized share
// (tenant weight fraction times the user's fraction of the tenant's shares)
// and UE its effective usage, UE = U_user + (U_tenant - U_user) * S_user/S_siblings,
// so a user is charged for the usage of its whole tenant in proportion to
// its share of it. We chose the classic formula over Fair Tree because it
// needs no global ranking (each association's factor depends only on its
// own and its tenant's usage) and it degrades smoothly: a tenant below its
// weighted share has F > 0.5, above it F < 0.5. Without tenants in the
// Config the factor is 0 for everyone. The Slurm baselines use Fair Tree
// instead (fairtree.go), as Slurm does by default.
func (c *cycle) fairshare(tenant, user string) float64 {
	k := assoc{tenant, user}
	if f, ok := c.prio.fs[k]; ok || c.prio.fairTree {
		return f
	}
	f := 0.0
	if ts := c.prio.tenants[tenant]; ts != nil && ts.share > 0 {
		us, known := ts.userShares[user]
		sum := ts.shareSum
		if !known {
			us = 1
			sum++
		}
		frac := us / sum
		s := ts.share * frac
		var ut, uu float64
		if c.prio.totalUsage > 0 {
			ut = ts.usage / c.prio.totalUsage
			uu = ts.userUsage[user] / c.prio.totalUsage
		}
		ue := uu + (ut-uu)*frac
		f = math.Exp2(-ue / s)
	}
	c.prio.fs[k] = f
	return f
}

// computePriority is Slurm's multifactor priority plus Loam's terms:
//
//	age*WeightAge + fairshare*WeightFairshare + jobsize*WeightJobSize
//	+ partition*WeightPartition + qos*WeightQOS - nice
//	+ min(AgingRate*hours waited, AgingCap) + WeightCompensation*hours lost
//
// The aging term is not weighted: it is in priority points so an admin can
// say "a batch job gains 100 points an hour, at most 5000". The integer
// priority is truncated, at least 1, as in Slurm; jobs held by a user or
// an admin get 0. A job waiting on a dependency has a priority, as in
// Slurm, but no age: it is not eligible until the dependency is met. A
// pinned priority (FixedPriority) is taken as it is, with no factors.
func (c *cycle) computePriority(j *jobInfo) {
	pj := j.p
	if pj.Hold == HeldUser || pj.Hold == HeldAdmin {
		j.prio, c.facs[j.idx] = 0, PriorityFactors{}
		return
	}
	if pj.FixedPriority > 0 {
		j.prio, c.facs[j.idx] = min(pj.FixedPriority, math.MaxUint32), PriorityFactors{}
		return
	}
	w := &c.cfg.Priority
	var f PriorityFactors
	waited := j.waited
	if pj.Hold != NotHeld {
		waited = 0
	}
	f.Age = w.WeightAge * math.Min(1, float64(waited)/float64(c.prio.maxAge))
	f.Fairshare = w.WeightFairshare * c.fairshareOf(j.as)
	f.JobSize = w.WeightJobSize * c.jobSize(j)
	if j.prim >= 0 && c.prio.maxJobFactor > 0 {
		f.Partition = w.WeightPartition * float64(c.parts[j.prim].cfg.JobFactor) / float64(c.prio.maxJobFactor)
	}
	if w.MaxQOSPriority > 0 {
		f.QOS = w.WeightQOS * math.Min(1, math.Max(0, float64(pj.QOSPrio)/float64(w.MaxQOSPriority)))
	}
	f.Nice = float64(pj.Nice)
	if c.pol == PolicyLoam {
		f.Aging = c.aging(j, waited)
		f.Compensation = w.WeightCompensation * math.Max(0, pj.LostRun.Hours())
		if w.CompensationCap > 0 {
			f.Compensation = math.Min(f.Compensation, w.CompensationCap)
		}
	}
	// The site factor comes last: a job without one sums as before.
	f.Site = float64(pj.SiteFactor)
	sum := f.Age + f.Fairshare + f.JobSize + f.Partition + f.QOS + f.Aging + f.Compensation - f.Nice + f.Site
	c.facs[j.idx] = f
	j.prio = clampPriority(sum)
}

func clampPriority(sum float64) int64 {
	switch {
	case math.IsNaN(sum) || sum < 1:
		return 1
	case sum > math.MaxUint32:
		return math.MaxUint32
	}
	return int64(sum)
}

// waited is the time since the job became eligible (or was submitted).
func (c *cycle) waited(pj *PendingJob) time.Duration {
	from := toTick(pj.Eligible)
	if from == 0 {
		from = toTick(pj.Submit)
	}
	if from == 0 || from >= c.now {
		return 0
	}
	return time.Duration(c.now - from)
}

// aging is the queue's per-hour gain, capped; AgingCap <= 0 leaves it
// uncapped (clampPriority still bounds the total).
func (c *cycle) aging(j *jobInfo, waited time.Duration) float64 {
	if j.prim < 0 {
		return 0
	}
	p := c.parts[j.prim].cfg
	a := math.Max(0, p.AgingRate) * waited.Hours()
	if p.AgingCap > 0 {
		a = math.Min(a, p.AgingCap)
	}
	return a
}

// jobSize is Slurm's (nodes/total_nodes + cpus/total_cpus)/2, inverted by
// PriorityFavorSmall.
func (c *cycle) jobSize(j *jobInfo) float64 {
	nodes, cpus := j.dem.n, j.dem.totalC
	if nodes == 0 {
		nodes, cpus = max(j.p.Shape.Nodes, 1), max(j.p.Shape.CPUs, 1)
	}
	// An --exclusive demand counts no CPUs of its own (it takes whole
	// nodes); slurmctld's job size reads its minimum, a CPU a node.
	cpus = max(cpus, nodes)
	var s float64
	if c.totalN > 0 {
		s += math.Min(1, float64(nodes)/float64(c.totalN))
	}
	if c.totalC > 0 {
		s += math.Min(1, float64(cpus)/float64(c.totalC))
	}
	s /= 2
	if c.cfg.Priority.FavorSmall {
		return 1 - s
	}
	return s
}
