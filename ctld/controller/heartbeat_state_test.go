package controller

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// TestHeartbeatTellsNodeState: a heartbeat's answer carries the node's
// base state and whether it drains, which the node daemon's
// HealthCheckNodeState (IDLE, NONDRAINED_IDLE...) needs.
func TestHeartbeatTellsNodeState(t *testing.T) {
	h := newHarness(t)
	h.node("n01").Stop() // the test sends the heartbeats
	beat := func() (string, bool) {
		body, _ := json.Marshal(api.HeartbeatRequest{Node: "n01", Health: api.Health{OK: true}})
		resp, err := h.c.handleHeartbeat(context.Background(), auth.Identity{}, body)
		if err != nil {
			t.Fatalf("heartbeat: %v", err)
		}
		r := resp.(*api.HeartbeatResponse)
		return r.State, r.Drain
	}
	type st struct {
		State string
		Drain bool
	}
	s, d := beat()
	if diff := cmp.Diff(st{api.NodeIdle, false}, st{s, d}); diff != "" {
		t.Errorf("idle node (-want +got):\n%s", diff)
	}
	var out api.NodeUpdateResponse
	if err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n01", State: "drain", Reason: "hc"}, &out); err != nil {
		t.Fatalf("drain: %v", err)
	}
	s, d = beat()
	if diff := cmp.Diff(st{api.NodeIdle, true}, st{s, d}); diff != "" {
		t.Errorf("drained node (-want +got):\n%s", diff)
	}
}
