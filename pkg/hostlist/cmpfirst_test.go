package hostlist

import "testing"

// TestCompareFirst: Slurm's hostlist_cmp_first on the first ranges, and
// its answer for empty lists (the first list "greater" even when both
// are empty).
func TestCompareFirst(t *testing.T) {
	list := func(names ...string) *List {
		l := &List{}
		for _, n := range names {
			l.Push(n)
		}
		return l
	}
	sign := func(n int) int { return min(max(n, -1), 1) }
	tests := map[string]struct {
		a, b *List
		want int
	}{
		"lower suffix first":   {list("cpu001", "cpu002"), list("cpu008"), -1},
		"higher suffix":        {list("cpu008"), list("cpu001"), 1},
		"same first host":      {list("cpu001"), list("cpu001", "gpu001"), 0},
		"prefix order":         {list("gpu001"), list("cpu009"), 1},
		"single host first":    {list("cpu"), list("cpu1"), -1},
		"widths apart":         {list("n01"), list("n1"), 1},
		"only the first range": {list("cpu009", "a1"), list("cpu010"), -1},
		"both empty":           {list(), list(), 1},
		"first empty":          {list(), list("cpu001"), 1},
		"second empty":         {list("cpu001"), list(), -1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := sign(CompareFirst(tc.a, tc.b)); got != tc.want {
				t.Errorf("CompareFirst = %d, want %d", got, tc.want)
			}
		})
	}
}
