package sched

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// TestRadixSortMatchesSlicesSort sorts the same keys both ways.
func TestRadixSortMatchesSlicesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tests := map[string]func() uint64{
		"full 64-bit keys":             rng.Uint64,
		"keys sharing their high bits": func() uint64 { return 0xffff_0000_0000_0000 | rng.Uint64N(1<<20) },
		"few distinct keys":            func() uint64 { return rng.Uint64N(3) << 40 },
		"one key":                      func() uint64 { return 42 },
	}
	for name, gen := range tests {
		t.Run(name, func(t *testing.T) {
			for _, n := range []int{0, 1, 2, 17, 1000} {
				keys := make([]uint64, n)
				for i := range keys {
					keys[i] = gen()
				}
				want := slices.Clone(keys)
				slices.Sort(want)
				radixSort(keys, make([]uint64, n))
				if diff := gocmp.Diff(want, keys); diff != "" {
					t.Errorf("n=%d (-want +got):\n%s", n, diff)
				}
			}
		})
	}
}

// TestSortOrderKeysMatchesComparisonSort checks scheduling order (rank,
// then key) against a comparison sort, and that equal keys are reported.
func TestSortOrderKeysMatchesComparisonSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	byRankKey := func(a, b orderKey) int {
		if a.rank != b.rank {
			return cmp.Compare(a.rank, b.rank)
		}
		return cmp.Compare(a.key, b.key)
	}
	tests := map[string]struct {
		ranks    int
		dupKey   bool // two keys equal in rank and key
		wantSort bool
	}{
		"one tier":                   {ranks: 1, wantSort: true},
		"several tiers":              {ranks: 4, wantSort: true},
		"a duplicate id is reported": {ranks: 3, dupKey: true, wantSort: false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			keys := make([]orderKey, 2000)
			for i := range keys {
				prio := rng.Uint64N(5000)
				keys[i] = orderKey{key: (1<<32-1-prio)<<32 | uint64(1_000_000+i), idx: int32(i), rank: int32(rng.IntN(tc.ranks))}
			}
			if tc.dupKey {
				keys[7] = orderKey{key: keys[3].key, idx: 7, rank: keys[3].rank}
			}
			want := slices.Clone(keys)
			slices.SortStableFunc(want, byRankKey)
			got := slices.Clone(keys)
			if ok := sortOrderKeys(got, make([]orderKey, len(got)), tc.ranks); ok != tc.wantSort {
				t.Fatalf("sortOrderKeys reported %v, want %v", ok, tc.wantSort)
			}
			if !tc.wantSort {
				return
			}
			if diff := gocmp.Diff(want, got, gocmp.AllowUnexported(orderKey{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
