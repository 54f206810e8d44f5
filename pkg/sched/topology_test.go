package sched

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPickLeaves(t *testing.T) {
	// Nodes 0-3 on leaf 0, 4-9 on leaf 1, 10-11 on leaf 2, 12 outside.
	leafOf := []int32{0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, -1}
	cases := map[string]struct {
		cands []int32
		n     int
		want  []int32
	}{
		"one leaf fits: the fullest that does (best fit)": {
			cands: []int32{0, 1, 2, 4, 5, 6, 7, 8}, n: 3, want: []int32{0, 1, 2},
		},
		"the smallest leaf that fits wins even if later in preference": {
			cands: []int32{4, 5, 6, 7, 8, 0, 1, 2}, n: 3, want: []int32{0, 1, 2},
		},
		"no leaf fits: the biggest leaves first": {
			cands: []int32{0, 1, 4, 5, 6, 10, 11}, n: 5, want: []int32{0, 1, 4, 5, 6},
		},
		"nodes outside the topology form one more leaf": {
			cands: []int32{12, 10, 4}, n: 2, want: []int32{12, 10},
		},
		"all candidates are needed": {
			cands: []int32{3, 9}, n: 2, want: []int32{3, 9},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := &cycle{leaves: 3, nodes: make([]nodeInfo, len(leafOf))}
			for i, l := range leafOf {
				c.nodes[i].leaf = l
			}
			if diff := cmp.Diff(tc.want, c.pickLeaves(tc.cands, tc.n)); diff != "" {
				t.Errorf("pickLeaves (-want +got):\n%s", diff)
			}
		})
	}
}
