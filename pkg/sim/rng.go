package sim

import "math"

// rng is xoshiro256** seeded through SplitMix64: a small, fast generator
// whose stream depends only on the seed and the Go code, never on the
// platform or the Go release (math/rand's streams may change, and the pure
// packages may not import it at all).
type rng struct{ s [4]uint64 }

func newRNG(seed uint64) *rng {
	r := &rng{}
	x := seed
	for i := range r.s {
		x += 0x9e3779b97f4a7c15
		r.s[i] = splitmix(x)
	}
	return r
}

func rotl(x uint64, k uint) uint64 { return x<<k | x>>(64-k) }

func (r *rng) next() uint64 {
	s := &r.s
	out := rotl(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = rotl(s[3], 45)
	return out
}

// float is uniform in [0, 1).
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// norm is a standard normal deviate (Box-Muller, one of the pair).
func (r *rng) norm() float64 {
	u := 1 - r.float() // (0, 1]
	return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*r.float())
}

// lognormal has the given median and log-space sigma, clipped to [lo, hi].
func (r *rng) lognormal(median, sigma, lo, hi float64) float64 {
	return min(max(median*math.Exp(sigma*r.norm()), lo), hi)
}

// shuffle puts recs in a uniformly random order (Fisher-Yates).
func (r *rng) shuffle(recs []Record) {
	for i := len(recs) - 1; i > 0; i-- {
		k := min(int(r.float()*float64(i+1)), i)
		recs[i], recs[k] = recs[k], recs[i]
	}
}

// pick returns an index drawn with the given weights.
func (r *rng) pick(weights []float64) int {
	var sum float64
	for _, w := range weights {
		sum += w
	}
	x := r.float() * sum
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}
