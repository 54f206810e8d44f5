package sched

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Start estimates (R13). A job holding a reservation gets its planned
// start, which is exact by the running jobs' time limits. Every other job
// that can run at all gets a deterministic estimate: each set of nodes that
// partitions share is a pool with a free-GPU (and, for CPU-only jobs,
// free-CPU) profile over time, built from the running jobs' limits and the
// jobs started in this cycle (a request that only some of a partition's
// nodes can hold, such as -C cpu, gets a pool of those nodes, poolOf); reserved jobs are laid onto it at their
// planned start, then every other waiting job in scheduling order at the
// earliest time its whole run fits: a conservative backfill on aggregate
// capacity. It ignores how free GPUs are spread over nodes and how limits
// will free up, so it is a lower bound on capacity effects and an upper
// bound on time-limit effects: users over-ask for time, so jobs usually
// start earlier than estimated.
//
// The profile has bins of one minute that grow by 2% of the distance from
// now (about 500 bins up to a year ahead), so estimates are within 2% of
// how far away they are. Each job costs a few segment-tree operations.

const (
	binMin     = time.Minute
	binGrowth  = 50 // bin width is at least 1/binGrowth of its distance from now
	binHorizon = 366 * 24 * time.Hour
)

type estimator struct {
	c     *cycle
	bins  []tick // bin start times
	pools []*pool
	seen  map[estKey]int
	floor []tick // FCFS: latest estimate so far, per partition
	// narrowed are the pools of requests that only some of a
	// partition's nodes can hold (-C, a GPU type, -x, --tmp), keyed by
	// partition and demand key; at most maxNarrowedPools a cycle.
	narrowed map[string]int32
}

// maxNarrowedPools bounds the narrowed pools one cycle builds (each costs
// a pass over the nodes and running jobs); requests beyond share their
// partition's pool.
const maxNarrowedPools = 32

type pool struct {
	gpus, cpus *segTree
	capG, capC int64
}

// estKey caches the earliest bin of an identical request searching from
// the same bin: the profile only shrinks, so an identical later job cannot
// start before it.
type estKey struct {
	pool  int32
	cpu   bool
	units int64
	dur   time.Duration
	from  int
}

func (c *cycle) estimate() {
	e := &estimator{c: c, seen: map[estKey]int{}, floor: make([]tick, len(c.parts)), narrowed: map[string]int32{}}
	e.makeBins()
	e.makePools()
	for _, rv := range c.resvs {
		if !rv.dead && rv.job != nil && rv.ps > 0 {
			e.lay(rv.job, e.binAt(rv.ps))
			if rv.strict {
				e.holdStrict(rv)
			}
		}
	}
	for i := range c.jobs {
		j := &c.jobs[i]
		if j.noEst || j.prim < 0 || (j.starts > 0 && j.starts >= j.ntasks && j.reason != ReasonJobArrayTaskLimit) {
			continue
		}
		if j.resv >= 0 && c.resvs[j.resv].ps > 0 {
			j.est = c.resvs[j.resv].ps
			continue
		}
		j.est = e.place(j)
	}
}

// fcfsFloor keeps FCFS estimates in queue order: no job of a queue starts
// before the one ahead of it.
func (e *estimator) fcfsFloor(j *jobInfo) tick {
	if e.c.pol != PolicyFCFS {
		return 0
	}
	return e.floor[j.prim]
}

func (e *estimator) makeBins() {
	now := e.c.now
	end := after(now, binHorizon)
	for t := now; t < end; {
		e.bins = append(e.bins, t)
		w := (t - now) / binGrowth
		t += max(int64(binMin), w-w%int64(binMin)) // whole minutes: estimates read well
	}
}

// binAt is the first bin starting at or after t (len(bins) if none).
func (e *estimator) binAt(t tick) int {
	i, _ := slices.BinarySearch(e.bins, t)
	return i
}

// makePools groups partitions by node set and fills each pool's profile.
func (e *estimator) makePools() {
	c := e.c
	byKey := map[string]int32{}
	member := [][]bool{}
	for i := range c.parts {
		p := &c.parts[i]
		var b strings.Builder
		for _, ni := range p.nodes {
			b.WriteString(strconv.Itoa(int(ni)))
			b.WriteByte(',')
		}
		k := b.String()
		id, ok := byKey[k]
		if !ok {
			id = int32(len(e.pools))
			byKey[k] = id
			in := make([]bool, len(c.nodes))
			for _, ni := range p.nodes {
				in[ni] = true
			}
			member = append(member, in)
			e.pools = append(e.pools, nil)
		}
		p.pool = id
	}
	for id := range e.pools {
		e.pools[id] = e.fillPool(member[id])
	}
}

// fillPool builds a pool's profiles from node capacity minus running jobs
// (difference arrays first, then one tree build).
func (e *estimator) fillPool(in []bool) *pool {
	c := e.c
	nb := len(e.bins)
	dg, dc := make([]int64, nb+1), make([]int64, nb+1)
	pl := &pool{}
	for ni := range c.nodes {
		if in[ni] && c.nodes[ni].schedulable() {
			pl.capG += int64(c.nodes[ni].gpus)
			pl.capC += int64(c.nodes[ni].cpus)
		}
	}
	for ri := range c.runs {
		r := &c.runs[ri]
		var g, cpus int64
		for _, ni := range r.nodeIdx {
			if !in[ni] || !c.nodes[ni].schedulable() {
				continue
			}
			for _, nr := range c.nodes[ni].runs {
				if nr.r == int32(ri) {
					cpus += int64(nr.cpus)
				}
			}
			n := &c.nodes[ni]
			for s := n.base; s < n.base+n.gpus; s++ {
				if c.gpuOcc[s] == int32(ri)+1 {
					g++
				}
			}
		}
		end := e.binAt(r.end)
		if r.end == never {
			end = nb
		}
		dg[0] -= g
		dg[end] += g
		dc[0] -= cpus
		dc[end] += cpus
	}
	vg, vc := make([]int64, nb), make([]int64, nb)
	var sg, sc int64
	for i := 0; i < nb; i++ {
		sg += dg[i]
		sc += dc[i]
		vg[i], vc[i] = pl.capG+sg, pl.capC+sc
	}
	pl.gpus, pl.cpus = newSegTree(vg), newSegTree(vc)
	return pl
}

// poolOf is the pool a job's estimate draws on: its partition's, or for
// a request only some of the partition's nodes can hold (-C cpu beside
// GPU nodes) a pool of those nodes, so that its estimate waits for them
// (a -C cpu job whose CPU nodes are busy is not "now" because GPU nodes
// are free). Jobs naming nodes (-w), and jobs with other partitions or
// -C options to choose from, keep the partition's.
func (e *estimator) poolOf(j *jobInfo) int32 {
	base := e.c.parts[j.prim].pool
	d := j.dem
	if d == nil || d.key == "" || len(d.nodeList) > 0 || len(j.alts) > 0 {
		return base
	}
	key := strconv.Itoa(int(j.prim)) + "#" + d.key
	if id, ok := e.narrowed[key]; ok {
		return id
	}
	if len(e.narrowed) >= maxNarrowedPools {
		return base
	}
	c := e.c
	in := make([]bool, len(c.nodes))
	some := false
	for _, ni := range c.parts[j.prim].nodes {
		if d.nodeStatic(&c.nodes[ni], ni, d.lg, d.lc, d.lm) {
			in[ni], some = true, true
		}
	}
	id := base
	if some {
		id = int32(len(e.pools))
		e.pools = append(e.pools, e.fillPool(in))
	}
	e.narrowed[key] = id
	return id
}

// units is what a job takes from its pool's profile: GPUs, or CPUs for a
// CPU-only job.
func (e *estimator) units(j *jobInfo) (*segTree, int64, int64, bool) {
	pl := e.pools[e.poolOf(j)]
	if j.dem.totalG > 0 {
		return pl.gpus, int64(j.dem.totalG), pl.capG, false
	}
	return pl.cpus, int64(max(j.dem.totalC, 1)), pl.capC, true
}

// holdStrict keeps a strict reservation's held GPUs out of the profile
// until its planned start: nobody may use them meanwhile.
func (e *estimator) holdStrict(rv *resv) {
	c := e.c
	ri := int32(slices.Index(c.resvs, rv))
	held := int64(0)
	for _, ni := range rv.nodes {
		n := &c.nodes[ni]
		for s := n.base; s < n.base+n.gpus; s++ {
			if c.gpuHold[s] == ri+1 && c.gpuOcc[s] == 0 {
				held++
			}
		}
	}
	pl := e.pools[c.parts[rv.part].pool]
	pl.gpus.add(0, e.binAt(rv.ps), -held)
}

// lay occupies the job's resources from bin s for its time limit.
func (e *estimator) lay(j *jobInfo, s int) {
	if s >= len(e.bins) {
		return
	}
	t, u, _, _ := e.units(j)
	t.add(s, e.endBin(s, j.limit), -u)
}

func (e *estimator) endBin(s int, limit time.Duration) int {
	end := after(e.bins[s], limit)
	if end == never {
		return len(e.bins)
	}
	return max(e.binAt(end), s+1)
}

// place finds the earliest bin where the job's whole run fits, lays it
// there and returns its start, or 0 when it never fits the horizon.
func (e *estimator) place(j *jobInfo) tick {
	t, u, capacity, cpu := e.units(j)
	if u > capacity {
		return 0
	}
	from := 0
	switch j.reason {
	case ReasonPriority, ReasonResources:
	default:
		from = e.binAt(max(e.c.now, j.begin, e.c.limitFrees(j.reason, j.as)))
	}
	if e.c.pol == PolicyFCFS {
		from = max(from, e.binAt(e.fcfsFloor(j)))
	}
	k := estKey{pool: e.poolOf(j), cpu: cpu, units: u, dur: j.limit, from: from}
	if s, ok := e.seen[k]; ok {
		from = max(from, s)
	}
	for from < len(e.bins) {
		s := t.firstAtLeast(from, u)
		if s < 0 {
			break
		}
		end := e.endBin(s, j.limit)
		if b := t.firstBelow(s, end, u); b >= 0 {
			from = b + 1
			continue
		}
		t.add(s, end, -u)
		if s != k.from {
			e.seen[k] = s
		}
		if e.c.pol == PolicyFCFS {
			e.floor[j.prim] = e.bins[s]
		}
		return e.bins[s]
	}
	e.seen[k] = len(e.bins)
	return 0
}
