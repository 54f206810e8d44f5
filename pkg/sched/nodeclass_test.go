package sched

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestFeasibilityByClassMatchesByNode gives random requests on random
// partitions the feasibility reason twice: counted over node classes, as
// the cycle does, and node by node.
func TestFeasibilityByClassMatchesByNode(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	seen := map[Reason]bool{}
	for round := 0; round < 200; round++ {
		c := &cycle{}
		var p partInfo
		for i := 0; i < 1+rng.IntN(40); i++ {
			n := nodeInfo{name: fmt.Sprint("n", i), gpus: []int{0, 4, 8}[rng.IntN(3)], cpus: []int{32, 64}[rng.IntN(2)],
				mem: []int64{1000, 2000}[rng.IntN(2)], state: []NodeState{NodeUp, NodeUp, NodeDrain, NodeDown}[rng.IntN(4)]}
			if rng.IntN(3) == 0 {
				n.gpuType = "h100"
			}
			if rng.IntN(3) == 0 {
				n.features = []string{"ib"}
			}
			p.nodes = append(p.nodes, int32(len(c.nodes)))
			n.parts = []int32{0}
			c.nodes = append(c.nodes, n)
		}
		p.cfg = &Partition{Name: "p"}
		c.parts = []partInfo{p}
		for req := 0; req < 20; req++ {
			d := demand{n: 1 + rng.IntN(6), g: rng.IntN(9), c: 1 + rng.IntN(64), m: int64(rng.IntN(2100))}
			d.lg, d.lc, d.lm = rng.IntN(d.g+1), 1+rng.IntN(d.c), int64(rng.IntN(int(d.m)+1))
			if rng.IntN(3) == 0 {
				d.gpuType = "h100"
			}
			if rng.IntN(3) == 0 {
				d.features = []string{"ib"}
			}
			got := c.feasibility(&d, &c.parts[0])
			// The node-by-node walk: with an exclude list naming no
			// partition node, classes are not used.
			d.exclude = []int32{int32(len(c.nodes))}
			if want := c.feasibility(&d, &c.parts[0]); got != want {
				t.Fatalf("round %d request %+v: by class %q, by node %q", round, d, got, want)
			}
			seen[got] = true
		}
	}
}
