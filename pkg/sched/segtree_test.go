package sched

import (
	"math/rand/v2"
	"testing"
)

// TestSegTreeMatchesAnArray drives the tree and a plain array with the
// same random operations and compares every answer.
func TestSegTreeMatchesAnArray(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 50; round++ {
		n := 1 + rng.IntN(70)
		vals := make([]int64, n)
		for i := range vals {
			vals[i] = int64(rng.IntN(20))
		}
		tree := newSegTree(vals)
		for op := 0; op < 200; op++ {
			l := rng.IntN(n)
			r := l + 1 + rng.IntN(n-l)
			v := int64(rng.IntN(10))
			switch rng.IntN(3) {
			case 0:
				tree.add(l, r, -v)
				for i := l; i < r; i++ {
					vals[i] -= v
				}
			case 1:
				if got, want := tree.firstAtLeast(l, v), firstAtLeast(vals, l, v); got != want {
					t.Fatalf("round %d: firstAtLeast(%d, %d) = %d, want %d (%v)", round, l, v, got, want, vals)
				}
			default:
				if got, want := tree.firstBelow(l, r, v), firstBelow(vals, l, r, v); got != want {
					t.Fatalf("round %d: firstBelow(%d, %d, %d) = %d, want %d (%v)", round, l, r, v, got, want, vals)
				}
			}
		}
	}
}

func firstAtLeast(vals []int64, from int, v int64) int {
	for i := from; i < len(vals); i++ {
		if vals[i] >= v {
			return i
		}
	}
	return -1
}

func firstBelow(vals []int64, l, r int, v int64) int {
	for i := l; i < r; i++ {
		if vals[i] < v {
			return i
		}
	}
	return -1
}
