package estimate

import (
	"math/rand/v2"
	"testing"
)

// TestSegTreeMatchesAnArray applies random range additions and compares
// both searches with a plain array.
func TestSegTreeMatchesAnArray(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		n := 1 + rng.IntN(70)
		vals := make([]int64, n)
		for i := range vals {
			vals[i] = rng.Int64N(10)
		}
		tr := newSegTree(vals)
		for op := range 200 {
			l := rng.IntN(n)
			r := l + rng.IntN(n-l+1)
			v := rng.Int64N(7) - 3
			tr.addRange(l, r, v)
			for i := l; i < r; i++ {
				vals[i] += v
			}
			from, u := rng.IntN(n), rng.Int64N(12)-2
			if got, want := tr.firstAtLeast(from, u), naiveFirst(vals, from, n, func(x int64) bool { return x >= u }); got != want {
				t.Fatalf("round %d op %d: firstAtLeast(%d, %d) = %d, want %d (%v)", round, op, from, u, got, want, vals)
			}
			to := from + rng.IntN(n-from+1)
			if got, want := tr.firstBelow(from, to, u), naiveFirst(vals, from, to, func(x int64) bool { return x < u }); got != want {
				t.Fatalf("round %d op %d: firstBelow(%d, %d, %d) = %d, want %d (%v)", round, op, from, to, u, got, want, vals)
			}
		}
	}
}

func naiveFirst(vals []int64, from, to int, ok func(int64) bool) int {
	for i := from; i < to; i++ {
		if ok(vals[i]) {
			return i
		}
	}
	return -1
}
