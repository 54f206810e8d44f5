package controller

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// TestNodeNoRespLife follows the peer's scontrol update NodeName=cpu008
// State=NoResp: accepted, the node shows IDLE+NOT_RESPONDING (its base
// state kept), State=RESUME is then refused ("Invalid node state
// specified"), and the flag goes at the node's next answer. (FUTURE:
// TestNodeFutureState.)
func TestNodeNoRespLife(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	n.Stop() // no background heartbeats: the test sends the next one
	state := func() (string, []string) {
		var nodes api.NodesResponse
		if err := h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &nodes); err != nil {
			t.Fatal(err)
		}
		return nodes.Nodes[0].State, nodes.Nodes[0].StateFlags
	}
	var out api.NodeUpdateResponse
	if err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n01", State: "NoResp"}, &out); err != nil {
		t.Fatalf("State=NoResp: %v", err)
	}
	if s, f := state(); s != api.NodeIdle || !cmp.Equal(f, []string{api.FlagNotResponding}) {
		t.Errorf("after NoResp: state %s %v, want IDLE [NOT_RESPONDING]", s, f)
	}
	err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n01", State: "resume"}, &out)
	if err == nil || err.Code != api.CodeInvalidNodeState {
		t.Errorf("State=resume: %v, want %s", err, api.CodeInvalidNodeState)
	}
	body, _ := json.Marshal(api.HeartbeatRequest{Node: "n01", Health: api.Health{OK: true}})
	if _, err := h.c.handleHeartbeat(context.Background(), auth.Identity{}, body); err != nil {
		t.Fatalf("heartbeat: %v", err)
	}
	if s, f := state(); s != api.NodeIdle || len(f) != 0 {
		t.Errorf("after the next heartbeat: state %s %v, want IDLE []", s, f)
	}
}

// TestNodeUpdateAll: "ALL" alone, in any case, names every node, as the
// peer's scontrol update NodeName=all State=DRAIN drains all 40; inside
// a list it is a node name, and the peer refuses gpu001,ALL ("Invalid
// node name specified").
func TestNodeUpdateAll(t *testing.T) {
	h := newHarness(t)
	var out api.NodeUpdateResponse
	if err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "aLL", State: "drain", Reason: "all"}, &out); err != nil {
		t.Fatalf("NodeName=aLL: %v", err)
	}
	var nodes api.NodesResponse
	if err := h.call(0, api.PathNodes, api.NodeQuery{}, &nodes); err != nil {
		t.Fatal(err)
	}
	if len(out.Nodes) != len(nodes.Nodes) || len(nodes.Nodes) < 2 {
		t.Errorf("updated %v, want all %d nodes", out.Nodes, len(nodes.Nodes))
	}
	for _, n := range nodes.Nodes {
		if n.Reason != "all" {
			t.Errorf("node %s reason %q, want all", n.Name, n.Reason)
		}
	}
	err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n01,ALL", State: "resume"}, &out)
	if err == nil || err.Code != api.CodeInvalidNodeName {
		t.Errorf("NodeName=n01,ALL: %v, want %s", err, api.CodeInvalidNodeName)
	}
}
