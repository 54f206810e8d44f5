package controller

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/slurmconf"
)

// TestEligibleReadsCachedCapacities: admission reads the node capacities
// computed with the configuration; with nothing filtered out it hands back
// that slice itself (a submission to thousands of nodes allocates nothing
// there), and a filter never changes it.
func TestEligibleReadsCachedCapacities(t *testing.T) {
	conf := &slurmconf.Config{SlurmUser: "0",
		Nodes: []slurmconf.Node{
			{Name: "n1", CPUs: 8, RealMemory: 1000, GRES: []slurmconf.GRES{{Name: "gpu", Count: 8}}},
			{Name: "n2", CPUs: 8, RealMemory: 1000, GRES: []slurmconf.GRES{{Name: "gpu", Count: 8}}, Features: []string{"a"}},
			{Name: "n3", CPUs: 8, RealMemory: 1000, State: "FUTURE"},
		},
		Partitions: []slurmconf.Partition{{Name: "p", Nodes: []string{"n1", "n2", "n3"}}},
	}
	cs, err := newConfState(conf, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	p := cs.parts["p"]
	for name, tc := range map[string]struct {
		d         demand
		want      []string
		wantCache bool
	}{
		"nothing filtered: the cached slice, FUTURE left out": {d: demand{perCPUs: 1}, want: []string{"n1", "n2"}, wantCache: true},
		"an excluded node":      {d: demand{exclude: []string{"n1"}}, want: []string{"n2"}},
		"a feature":             {d: demand{features: []string{"a"}}, want: []string{"n2"}},
		"more GPUs than a node": {d: demand{perGPUs: 9}, want: nil},
	} {
		t.Run(name, func(t *testing.T) {
			got := eligible(cs, p, tc.d)
			var names []string
			for _, c := range got {
				names = append(names, c.name)
			}
			if diff := cmp.Diff(tc.want, names); diff != "" {
				t.Errorf("eligible nodes (-want +got)\n%s", diff)
			}
			if cached := len(got) > 0 && &got[0] == &cs.partCaps[p][0]; cached != tc.wantCache {
				t.Errorf("the cached slice handed back: %v, want %v", cached, tc.wantCache)
			}
			if n := len(cs.partCaps[p]); n != 2 {
				t.Errorf("the cache holds %d nodes after the call, want 2", n)
			}
		})
	}
	if got := topSum(cs.partCaps[p], 2, func(c nodeCap) int64 { return int64(c.gpus) }); got != 16 {
		t.Errorf("topSum of every node's GPUs = %d, want 16", got)
	}
}
