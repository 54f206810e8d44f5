package estimate

import (
	"slices"
	"time"
)

// The profile has time bins of one minute that widen with their distance
// from now (each at least 1/binGrowth of it), up to binHorizon: about 500
// bins for a year, and every estimate is within 2% of its distance.
const (
	binMin     = int64(60)
	binGrowth  = 50
	binHorizon = int64(366 * 24 * 3600)
	forever    = int64(1) << 62
)

// profile is each pool's free GPUs and CPUs over time.
type profile struct {
	now  int64
	bins []int64 // bin start times, Unix seconds
	gpus []*segTree
	cpus []*segTree
	capG []int64
	capC []int64
}

func newProfile(now int64, pools []Pool) *profile {
	p := &profile{now: now}
	for t := now; t < now+binHorizon; {
		p.bins = append(p.bins, t)
		w := (t - now) / binGrowth
		t += max(binMin, w-w%binMin)
	}
	for _, pl := range pools {
		p.capG = append(p.capG, int64(pl.GPUs))
		p.capC = append(p.capC, int64(pl.CPUs))
	}
	return p
}

// binAt is the first bin starting at or after t (len(bins) if none).
func (p *profile) binAt(t int64) int {
	i, _ := slices.BinarySearch(p.bins, t)
	return i
}

// endBin is the bin where a run from bin s lasting d seconds is over.
func (p *profile) endBin(s int, d int64) int {
	if d >= forever {
		return len(p.bins)
	}
	return max(p.binAt(p.bins[s]+d), s+1)
}

// fill builds the trees from what running jobs hold until their ends
// (difference arrays first, then one build per tree).
func (p *profile) fill(held []heldUse) {
	nb := len(p.bins)
	dg := make([][]int64, len(p.capG))
	dc := make([][]int64, len(p.capG))
	for i := range dg {
		dg[i], dc[i] = make([]int64, nb+1), make([]int64, nb+1)
	}
	for _, h := range held {
		if h.pool < 0 || h.pool >= len(dg) {
			continue
		}
		end := nb
		if h.end < forever {
			end = p.binAt(h.end)
		}
		dg[h.pool][0] -= h.gpus
		dg[h.pool][end] += h.gpus
		dc[h.pool][0] -= h.cpus
		dc[h.pool][end] += h.cpus
	}
	for i := range dg {
		vg, vc := make([]int64, nb), make([]int64, nb)
		var sg, sc int64
		for b := range nb {
			sg += dg[i][b]
			sc += dc[i][b]
			vg[b], vc[b] = p.capG[i]+sg, p.capC[i]+sc
		}
		p.gpus = append(p.gpus, newSegTree(vg))
		p.cpus = append(p.cpus, newSegTree(vc))
	}
}

// heldUse is capacity held in a pool until end (Unix seconds).
type heldUse struct {
	pool       int
	gpus, cpus int64
	end        int64
}

// place lays a run of d seconds asking for need at the earliest bin at or
// after from where it fits whole, and returns its start; ok is false when
// it never fits before the horizon. GPU jobs are placed on GPUs, CPU-only
// jobs on CPUs, as pkg/sched does.
func (p *profile) place(need Use, from int64, d int64) (int64, bool) {
	if need.Pool < 0 || need.Pool >= len(p.gpus) {
		return 0, false
	}
	t, u, capacity := p.gpus[need.Pool], int64(need.GPUs), p.capG[need.Pool]
	if need.GPUs <= 0 {
		t, u, capacity = p.cpus[need.Pool], int64(max(need.CPUs, 1)), p.capC[need.Pool]
	}
	if u > capacity {
		return 0, false
	}
	b := p.binAt(from)
	for b < len(p.bins) {
		s := t.firstAtLeast(b, u)
		if s < 0 {
			return 0, false
		}
		end := p.endBin(s, d)
		if low := t.firstBelow(s, end, u); low >= 0 {
			b = low + 1
			continue
		}
		t.addRange(s, end, -u)
		return p.bins[s], true
	}
	return 0, false
}

func unixOf(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}
