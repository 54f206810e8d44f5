package sched

import (
	"slices"
	"time"
)

// pick is one node of a placement: the GPU slots (node-local indices) and
// the CPUs and memory taken there.
type pick struct {
	node int32
	gpus []int
	cpus int
	mem  int64
}

// cand is a node that can hold one of a demand's nodes.
type cand struct {
	node  int32
	class int8 // 0: own reservation, 1: backfill into a hold, 2: free, 3: a lower tier's hold
	free  int  // usable GPUs, for best fit
	full  bool // fits a full node of the demand, not only the last
}

// failKey identifies requests that fail together: within a cycle free
// resources only shrink (until a reservation is released), so once a shape
// fails for a job ending at E it fails for every later end.
type failKey struct {
	part          int32
	n, g, c       int
	lg, lc        int
	m, lm         int64
	memWhole      bool
	constraintKey string
	lender        bool
	head          bool
	adv           int32 // the job's admin reservation (advState.job)
}

type failCache struct {
	m map[failKey]tick
}

func (f *failCache) reset() { clear(f.m) }

func keyOf(p int32, d *demand) failKey {
	return failKey{part: p, n: d.n, g: d.g, c: d.c, lg: d.lg, lc: d.lc, m: d.m, lm: d.lm, memWhole: d.memWhole, constraintKey: d.key}
}

// place finds nodes for demand d in partition p now, for a job that ends at
// end and owns reservation own (-1: none). It prefers, in order: the job's
// own reserved resources; resources held by reservations that start after
// the job ends (they would idle otherwise); then best fit by free GPUs, so
// small jobs fill the most-used nodes and whole nodes stay whole for big
// jobs. Nothing is changed; commit applies the result.
func (c *cycle) place(p int32, d *demand, end tick, own int32) []pick {
	k := keyOf(p, d)
	k.lender, k.head, k.adv = c.lender, c.headPos >= 0, c.adv.job
	if own < 0 {
		if e, ok := c.fails.m[k]; ok && end >= e {
			return nil
		}
	}
	picks := c.placeSearch(p, d, end, own)
	if picks == nil && own < 0 {
		if e, ok := c.fails.m[k]; !ok || end < e {
			c.fails.m[k] = end
		}
	}
	return picks
}

func (c *cycle) placeSearch(p int32, d *demand, end tick, own int32) []pick {
	if d.contig {
		return c.placeContig(p, d, end, own) // contiguous.go
	}
	if c.parts[p].cfg.LLN && d.uniform() && d.counts == nil {
		return c.placeLLN(p, d, end, own) // lln.go
	}
	if c.pol != PolicyLoam && d.uniform() && d.counts == nil {
		picks := c.slurmPlace(p, d, end, own)
		if d.maxLeaves > 0 && picks != nil && !c.leavesOK(pickedNodes(picks), d) {
			return nil // switches.go
		}
		return picks
	}
	held := c.heldCands(p, d, end, own)
	if d.n == 1 && len(d.nodeList) == 0 && d.counts == nil {
		var best *cand
		for i := range held {
			if best == nil || cmpCand(c)(held[i], *best) < 0 {
				best = &held[i]
			}
		}
		if best != nil && best.class <= 1 {
			return c.pickGPUs(p, []int32{best.node}, d, end, own)
		}
		if ni, ok := c.drainFit(p, d, end, d.g == 0); ok {
			return c.pickGPUs(p, []int32{ni}, d, end, own)
		}
		if d.g == 0 {
			if ni, ok := c.drainFit(p, d, end, false); ok {
				return c.pickGPUs(p, []int32{ni}, d, end, own)
			}
		}
		if best != nil {
			return c.pickGPUs(p, []int32{best.node}, d, end, own)
		}
		return nil
	}
	if len(held)+c.idx.atLeast(p, d.lg) < d.n {
		return nil
	}
	cands := c.freeCands(p, d, end, held)
	var nodes []int32
	if d.counts != nil {
		nodes = c.chooseCounted(cands, d) // constraint.go
	} else {
		nodes = c.chooseNodes(cands, d)
	}
	if nodes == nil || !c.leavesOK(nodes, d) { // switches.go
		return nil
	}
	return c.pickGPUs(p, nodes, d, end, own)
}

// cmpCand orders candidates: own reservation, then holds, then fewest
// usable GPUs (best fit), then node preference.
func cmpCand(c *cycle) func(a, b cand) int {
	return func(a, b cand) int {
		if a.class != b.class {
			return int(a.class) - int(b.class)
		}
		if a.free != b.free {
			return a.free - b.free
		}
		return int(c.nodes[a.node].rank - c.nodes[b.node].rank)
	}
}

// heldCands lists nodes of the job's own reservation and of reservations
// it may backfill into (non-strict ones planned to start after it ends).
func (c *cycle) heldCands(p int32, d *demand, end tick, own int32) []cand {
	var out []cand
	c.stampGen++
	tier := c.parts[p].cfg.Tier
	if !c.anyPermits(end, tier) && own < 0 {
		return nil
	}
	for ri, r := range c.resvs {
		mine := int32(ri) == own
		if !mine && !c.mayUse(r, end, tier) {
			continue
		}
		for _, ni := range r.nodes {
			if c.stamp[ni] == c.stampGen {
				continue
			}
			c.stamp[ni] = c.stampGen
			if cd, ok := c.evalNode(p, ni, d, end, own); ok {
				switch {
				case mine:
					cd.class = 0
				case r.permits(end, -1<<30):
					cd.class = 1
				default:
					cd.class = 3 // only because j's tier outranks it
				}
				out = append(out, cd)
			}
		}
	}
	return out
}

// drainFit chooses the free node for a single-node job that ends at end:
// the one whose whole-node availability it delays least, then the one that
// drains soonest after the job ends, then best fit.
//
// A node can serve a whole-node job only once every job on it has ended
// (by their limits: its drain time). Putting the job on a node delays that
// by max(0, end - drain): nothing on a node that stays busy longer anyway,
// the job's whole run on an empty node. Among nodes it does not delay, the
// job goes where the drain comes soonest after its end, so jobs that end
// together share nodes: short jobs fill nodes that will drain soon, and
// the free GPUs of nodes pinned by long jobs are left to other long jobs
// instead of one more node being pinned. Times count in steps of an
// eighth of the job's run (at least a minute); within a step the node
// with the fewest free GPUs wins (best fit, so whole nodes stay whole),
// then node preference. The walk looks at no more than maxDrainScan
// nodes: on huge clusters the best of those is taken.
//
// With cpuOnly only nodes without GPUs count, so that a CPU-only job that
// a CPU node can hold leaves GPU nodes' CPUs to GPU work.
func (c *cycle) drainFit(p int32, d *demand, end tick, cpuOnly bool) (int32, bool) {
	quantum := max((end-c.now)/8, int64(time.Minute))
	type score struct{ delay, slack tick }
	better := func(a, b score) bool { return a.delay < b.delay || (a.delay == b.delay && a.slack < b.slack) }
	best, bestS := int32(-1), score{}
	seen := 0
	buckets := c.idx.buckets
	if cpuOnly {
		buckets = min(buckets, 1) // a node without GPUs has none free
	}
	for k := d.g; k < buckets && seen < maxDrainScan; k++ {
		c.idx.scan(p, k, func(rank int) bool {
			ni := c.byRank[rank]
			if cpuOnly && c.nodes[ni].gpus > 0 {
				return true
			}
			seen++
			drain := max(c.drainAt(ni), c.now)
			s := score{delay: max(end-drain, 0) / quantum, slack: max(drain-end, 0) / quantum}
			// Buckets and ranks only grow: an equal score found earlier wins.
			if best < 0 || better(s, bestS) {
				if _, ok := c.evalNode(p, ni, d, end, -1); ok {
					best, bestS = ni, s
				}
			}
			return seen < maxDrainScan
		})
	}
	return best, best >= 0
}

// maxDrainScan bounds the nodes drainFit looks at for one job.
const maxDrainScan = 256

// drainAt is when every job on node ni has ended, by their limits (now
// when the node is idle).
func (c *cycle) drainAt(ni int32) tick {
	t := c.now
	for _, nr := range c.nodes[ni].runs {
		t = max(t, c.runs[nr.r].end)
	}
	return t
}

// freeCands collects the nodes that can hold part of a multi-node request,
// held ones first, in preference order. Without a topology the first n
// suffice, since buckets are walked best fit first.
func (c *cycle) freeCands(p int32, d *demand, end tick, held []cand) []cand {
	slices.SortFunc(held, cmpCand(c))
	out := append(c.scratch.cands[:0], held...)
	defer func() { c.scratch.cands = out[:0] }()
	stopAt := -1
	if c.leaves == 0 && len(d.nodeList) == 0 && d.lg == d.g && d.counts == nil {
		stopAt = d.n
	}
	full := 0
	for _, h := range held {
		if h.full {
			full++
		}
	}
	for k := d.lg; k < c.idx.buckets; k++ {
		if stopAt >= 0 && full >= stopAt {
			break
		}
		c.idx.scan(p, k, func(rank int) bool {
			ni := c.byRank[rank]
			if c.stamp[ni] == c.stampGen {
				return true // already a held candidate
			}
			if cd, ok := c.evalNode(p, ni, d, end, -1); ok {
				cd.class = 2
				out = append(out, cd)
				if cd.full {
					full++
				}
			}
			return stopAt < 0 || full < stopAt
		})
	}
	return out
}

// evalNode checks whether node ni can take one node of demand d now: it is
// up and in p, passes the request's constraints, and has the GPUs, CPUs and
// memory free (counting holds the job may use).
func (c *cycle) evalNode(p int32, ni int32, d *demand, end tick, own int32) (cand, bool) {
	n := &c.nodes[ni]
	if !n.schedulable() || !slices.Contains(n.parts, p) || !d.nodeStatic(n, ni, d.lg, d.lc, d.lm) {
		return cand{}, false
	}
	if c.adv.byNode != nil && !c.advAllows(ni, end) {
		return cand{}, false // an admin reservation's window
	}
	if !c.userExclAllows(ni, d) { // userexcl.go
		return cand{}, false
	}
	tier := c.parts[p].cfg.Tier
	cpus, mem := c.nodeCPUFree(n, own, end, tier)
	// gpuUsable for every slot, inlined: multi-node requests evaluate
	// every node that has the GPUs free.
	free := 0
	occ, hold := c.gpuOcc[n.base:n.base+n.gpus], c.gpuHold[n.base:n.base+n.gpus]
	for k, o := range occ {
		if o != 0 {
			continue
		}
		if h := hold[k] - 1; h < 0 || h == own || c.mayUse(c.resvs[h], end, tier) {
			free++
		}
	}
	if d.excl && (len(n.runs) > 0 || free < n.gpus || cpus < n.cpus || mem < n.mem) {
		return cand{}, false
	}
	cpus = c.capPartCPUs(p, ni, cpus) // maxcpus.go
	if free < d.lg || cpus < d.lc || mem < d.memOn(n, d.lm) {
		return cand{}, false
	}
	// The static check already passed for the last node's share.
	same := d.g == d.lg && d.c == d.lc && d.m == d.lm
	full := free >= d.g && cpus >= d.c && mem >= d.memOn(n, d.m) && (same || d.nodeStatic(n, ni, d.g, d.c, d.m))
	return cand{node: ni, free: free, full: full}, true
}

// chooseNodes picks d.n nodes from cands (sorted by preference): the -w
// nodes first, then on as few leaf switches as possible. The last node may
// be one that only fits the smaller last share of the request. A -w node
// that only fits the last share goes last (the peer starts -w
// cpu[001-002] -n30 with 12 CPUs free on cpu001, the larger share on
// cpu002); two such nodes cannot both be last.
func (c *cycle) chooseNodes(cands []cand, d *demand) []int32 {
	var chosen []int32
	short := int32(-1)
	for _, ni := range d.nodeList {
		i := slices.IndexFunc(cands, func(x cand) bool { return x.node == ni })
		if i < 0 || (!cands[i].full && short >= 0) {
			return nil
		}
		if cands[i].full {
			chosen = append(chosen, ni)
		} else {
			short = ni
		}
	}
	rest := d.n - len(d.nodeList)
	if rest <= 0 {
		if short >= 0 {
			chosen = append(chosen, short)
		}
		return chosen
	}
	var fulls, lasts []int32
	for _, cd := range cands {
		if slices.Contains(d.nodeList, cd.node) {
			continue
		}
		if cd.full {
			fulls = append(fulls, cd.node)
		} else {
			lasts = append(lasts, cd.node)
		}
	}
	if short >= 0 {
		if len(fulls) < rest {
			return nil
		}
		return append(append(chosen, c.pickLeaves(fulls, rest)...), short)
	}
	if len(fulls) >= rest {
		return append(chosen, c.pickLeaves(fulls, rest)...)
	}
	if len(fulls) < rest-1 || len(lasts) == 0 {
		return nil
	}
	return append(append(chosen, fulls...), lasts[0])
}

// pickGPUs chooses the GPU slots on each chosen node: the job's own held
// GPUs first, then GPUs held for reservations that start after it ends
// (idle until then), then free ones, then, for a job of a higher tier,
// GPUs held by lower tiers; lowest index first within each group.
func (c *cycle) pickGPUs(p int32, nodes []int32, d *demand, end tick, own int32) []pick {
	tier := c.parts[p].cfg.Tier
	out := make([]pick, 0, len(nodes))
	for i, ni := range nodes {
		n := &c.nodes[ni]
		g, cpus, mem := d.need(n, i == len(nodes)-1)
		if d.excl {
			g, cpus, mem = n.gpus, n.cpus, n.mem
		}
		pk := pick{node: ni, cpus: cpus, mem: mem, gpus: make([]int, 0, g)}
		for pass := 0; pass < 4 && len(pk.gpus) < g; pass++ {
			for s := n.base; s < n.base+n.gpus && len(pk.gpus) < g; s++ {
				if !c.gpuUsable(s, own, end, tier) || slices.Contains(pk.gpus, s-n.base) {
					continue
				}
				if c.slotClass(s, own, end) == pass {
					pk.gpus = append(pk.gpus, s-n.base)
				}
			}
		}
		if len(pk.gpus) < g {
			return nil
		}
		slices.Sort(pk.gpus)
		out = append(out, pk)
	}
	return out
}

// slotClass ranks a usable GPU slot for pickGPUs: 0 own hold, 1 a hold
// that starts after the job ends, 2 free, 3 a lower tier's hold.
func (c *cycle) slotClass(s int, own int32, end tick) int {
	h := c.gpuHold[s] - 1
	switch {
	case h < 0:
		return 2
	case h == own:
		return 0
	case c.resvs[h].permits(end, -1<<30):
		return 1
	}
	return 3
}
