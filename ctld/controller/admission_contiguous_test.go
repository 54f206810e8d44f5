package controller

import (
	"testing"

	"github.com/loamhpc/loam/pkg/slurmconf"
)

// TestLongestRun: runs count in natural name order over every configured
// node, so a node outside the list (cpu010 after cpu009) breaks them.
func TestLongestRun(t *testing.T) {
	conf := &slurmconf.Config{}
	for _, n := range []string{"cpu010", "cpu001", "cpu002", "cpu003", "cpu009", "gpu001"} {
		conf.Nodes = append(conf.Nodes, slurmconf.Node{Name: n})
	}
	caps := func(names ...string) []nodeCap {
		var out []nodeCap
		for _, n := range names {
			out = append(out, nodeCap{name: n})
		}
		return out
	}
	for _, tc := range []struct {
		nodes []string
		want  int
	}{
		{[]string{"cpu001", "cpu002", "cpu003"}, 3},
		{[]string{"cpu001", "cpu003", "cpu009"}, 2}, // cpu003, cpu009 are neighbours
		{[]string{"cpu001", "cpu003"}, 1},
		{[]string{"cpu009", "cpu010", "gpu001"}, 3},
		{nil, 0},
	} {
		if got := longestRun(conf, caps(tc.nodes...)); got != tc.want {
			t.Errorf("longestRun(%v) = %d, want %d", tc.nodes, got, tc.want)
		}
	}
}
