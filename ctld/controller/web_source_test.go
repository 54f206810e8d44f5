package controller

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTopJobsKeepsTheFirstInQueueOrder compares the bounded heap with a
// full sort, positions repeated and missing (held jobs) included.
func TestTopJobsKeepsTheFirstInQueueOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for round := range 100 {
		n, limit := rng.IntN(300), rng.IntN(40)
		var all []*jobRecord
		top := &topJobs{limit: limit}
		for i := range n {
			r := &jobRecord{ID: uint32(i + 1)}
			r.plan.Position = rng.IntN(50) // 0: no position
			all = append(all, r)
			top.offer(r)
		}
		slices.SortFunc(all, func(a, b *jobRecord) int {
			if queueBefore(a, b) {
				return -1
			}
			return 1
		})
		want := ids(all[:min(limit, n)])
		if diff := cmp.Diff(want, ids(top.sorted())); diff != "" {
			t.Fatalf("round %d (n %d, limit %d) (-want +got):\n%s", round, n, limit, diff)
		}
		if top.seen-len(top.h) != max(n-limit, 0) {
			t.Errorf("round %d: %d left out, want %d", round, top.seen-len(top.h), max(n-limit, 0))
		}
	}
}

func ids(rs []*jobRecord) []uint32 {
	out := []uint32{}
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}
