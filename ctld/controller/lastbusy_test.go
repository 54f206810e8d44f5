package controller

import (
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// TestNodeLastBusy: a node that registers idle, or is resumed, was last
// busy then, as Slurm's LastBusyTime (never Unknown once it answered).
func TestNodeLastBusy(t *testing.T) {
	h := newHarness(t)
	registered := h.clock.Now().Unix()
	h.node("n01")
	lastBusy := func() int64 {
		var nodes api.NodesResponse
		if err := h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &nodes); err != nil {
			t.Fatal(err)
		}
		return nodes.Nodes[0].LastBusy
	}
	if got := lastBusy(); got != registered {
		t.Errorf("after registering: LastBusy = %d, want %d", got, registered)
	}
	h.clock.Advance(time.Minute)
	var out api.NodeUpdateResponse
	if err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n01", State: "drain", Reason: "x"}, &out); err != nil {
		t.Fatal(err)
	}
	if got := lastBusy(); got != registered {
		t.Errorf("after draining: LastBusy = %d, want %d", got, registered)
	}
	h.clock.Advance(time.Minute)
	if err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n01", State: "resume"}, &out); err != nil {
		t.Fatal(err)
	}
	if got, want := lastBusy(), h.clock.Now().Unix(); got != want {
		t.Errorf("after resuming: LastBusy = %d, want %d", got, want)
	}
}

// TestNodeLoadAtRegistration: CPULoad and FreeMem come with the node's
// registration, as slurmd's does, not only with its first heartbeat
// (sinfo %O and %e showed 0 for up to a heartbeat interval).
func TestNodeLoadAtRegistration(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	var nodes api.NodesResponse
	if err := h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &nodes); err != nil {
		t.Fatal(err)
	}
	if n := nodes.Nodes[0]; n.CPULoad != 0.5 || n.FreeMemory != 1234 { // the fake node's
		t.Errorf("after registering: CPULoad %v FreeMemory %d, want 0.5 and 1234", n.CPULoad, n.FreeMemory)
	}
}
