package sched

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSplitCPUsLikeSlurm checks the CPU shares of multi-node requests
// against the peer (Slurm 22.05, cons_tres): every node gets one task's
// CPUs and one node the rest, unless no node could hold the rest.
func TestSplitCPUsLikeSlurm(t *testing.T) {
	type split struct{ N, C, LC int }
	tests := map[string]struct {
		shape Shape
		max   int
		want  split
	}{
		// Peer: -N2 -n4 has SLURM_JOB_CPUS_PER_NODE=3,1.
		"two nodes four tasks": {Shape{Nodes: 2, CPUs: 4}, 32, split{2, 3, 1}},
		// Peer: -N2 -n5 gives 4,1.
		"two nodes five tasks": {Shape{Nodes: 2, CPUs: 5}, 32, split{2, 4, 1}},
		// Peer: -N3 -n4 gives 2,1(x2): the two least nodes are the equal ones.
		"three nodes four tasks": {Shape{Nodes: 3, CPUs: 4}, 32, split{3, 1, 2}},
		// Peer: -N2 -n4 -c2 gives 6,2 (CPUsPerNode with CPUs: one task's CPUs).
		"two CPUs per task": {Shape{Nodes: 2, CPUs: 8, CPUsPerNode: 2}, 32, split{2, 6, 2}},
		// Peer: -N3 -n7 -c2 gives 10,2(x2).
		"three nodes seven tasks of two": {Shape{Nodes: 3, CPUs: 14, CPUsPerNode: 2}, 32, split{3, 2, 10}},
		// -N3 -n70 on 32-CPU nodes: the rest (68) fits no node, so the
		// nodes are chosen for even shares; the start then fills them
		// node by node as the peer does (32(x2),6, in pkg/cluster).
		"rest fits no node":     {Shape{Nodes: 3, CPUs: 70}, 32, split{3, 24, 22}},
		"spread in whole tasks": {Shape{Nodes: 2, CPUs: 66, CPUsPerNode: 2}, 32, split{2, 34, 32}},
		"one node":              {Shape{Nodes: 1, CPUs: 5}, 32, split{1, 5, 5}},
		"per node only":         {Shape{Nodes: 2, CPUsPerNode: 4}, 32, split{2, 4, 4}},
		"one task per node":     {Shape{Nodes: 3, CPUs: 3}, 32, split{3, 1, 1}},
		"no node count":         {Shape{CPUs: 70}, 32, split{3, 24, 22}},
		// Slurm gives -N2 -n16 --gpus-per-node=8 15,1; Loam keeps GPU jobs
		// even so the node with the rest needs no more free CPUs.
		"GPU jobs stay even": {Shape{Nodes: 2, CPUs: 16, GPUsPerNode: 8}, 64, split{2, 8, 8}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &partInfo{maxCPUs: tc.max}
			d := demand{n: tc.shape.Nodes}
			d.splitGPUs(&tc.shape, p, p.maxGPUs)
			d.splitCPUs(&tc.shape, p, p.maxCPUs)
			if diff := cmp.Diff(tc.want, split{d.n, d.c, d.lc}); diff != "" {
				t.Errorf("split (-want +got):\n%s", diff)
			}
		})
	}
}
