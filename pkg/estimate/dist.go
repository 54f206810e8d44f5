package estimate

import "math"

// Run-time ratios (actual/limit) are spread over numBins log-spaced bins
// from 0.001 to 1: users' jobs either fail within minutes or run for most
// of what they asked, and a mean alone cannot tell a job that will end now
// from one that will run to its limit.
const (
	numBins  = 24
	minRatio = 0.001
)

// binEdge is the lower edge of bin i (binEdge(numBins) = 1).
func binEdge(i int) float64 { return math.Pow(minRatio, 1-float64(i)/numBins) }

func binOf(x float64) int {
	if x <= minRatio {
		return 0
	}
	return min(int(numBins*(1-math.Log(x)/math.Log(minRatio))), numBins-1)
}

// binMid is the geometric middle of bin i.
func binMid(i int) float64 { return math.Sqrt(binEdge(i) * binEdge(i+1)) }

// dist is a distribution of ratios whose observations decay: each new one
// weighs max(1/n, alpha), the rest shrink to match, so it always sums to
// 1 once anything was seen.
type dist struct {
	w [numBins]float64
	n float64
}

func (d *dist) add(x, alpha float64) {
	d.n++
	a := max(1/d.n, alpha)
	for i := range d.w {
		d.w[i] *= 1 - a
	}
	d.w[binOf(x)] += a
}

// weight is how many observations the distribution stands for, at most
// 1/alpha.
func (d *dist) weight(alpha float64) float64 { return min(d.n, 1/alpha) }

// blend mixes d with prior, which weighs k observations.
func (d *dist) blend(prior dist, k, alpha float64) dist {
	w := d.weight(alpha)
	out := dist{n: d.n + prior.n}
	for i := range out.w {
		out.w[i] = (w*d.w[i] + k*prior.w[i]) / (w + k)
	}
	return out
}

// meanAbove is the expected ratio of a job known to have run past lo:
// the mass above lo, each bin's middle raised to lo where lo cuts it.
// Without mass above lo the job is expected to end now (lo).
func (d *dist) meanAbove(lo float64) float64 {
	var s, t float64
	for i, w := range d.w {
		if binEdge(i+1) <= lo {
			continue
		}
		s += w * max(binMid(i), lo)
		t += w
	}
	if t == 0 {
		return lo
	}
	return s / t
}

// point is a distribution all at x, for the prior.
func point(x float64) dist {
	var d dist
	d.w[binOf(x)] = 1
	return d
}
