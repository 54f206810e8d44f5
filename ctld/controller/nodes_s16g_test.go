package controller

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestNodeHostnameFromConfig: NodeHostName is the configured NodeHostname
// (the node name when unset), as the peer's "scontrol show node" prints
// it, not the name the node daemon reports for its host: the peer's
// emulated nodes all run on one host and show NodeHostName=localhost from
// slurm.conf; the harness's n01 has no NodeHostname and reports
// "localhost", so Slurm would show n01.
func TestNodeHostnameFromConfig(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	var nodes api.NodesResponse
	if err := h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &nodes); err != nil {
		t.Fatal(err)
	}
	if len(nodes.Nodes) != 1 {
		t.Fatalf("got %d nodes, want 1", len(nodes.Nodes))
	}
	if diff := cmp.Diff("n01", nodes.Nodes[0].Hostname); diff != "" {
		t.Errorf("NodeHostName (-want +got):\n%s", diff)
	}
}
