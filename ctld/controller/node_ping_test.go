package controller

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/test/clustertest"
	"github.com/loamhpc/loam/test/fakenode"
)

// TestResumeRequiresRegistration follows the peer: RESUME of a drained or
// down node and UNDRAIN leave it IDLE+NOT_RESPONDING ("idle*") until it
// answers the ping sent at once; RESUME of a failed node and State=IDLE
// do not. The node here never heartbeats, so only the ping can clear it.
func TestResumeRequiresRegistration(t *testing.T) {
	h := newHarness(t)
	gate := make(chan struct{})
	silentNode(t, h, "n01", gate)
	noResp := func() bool {
		var nodes api.NodesResponse
		if err := h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &nodes); err != nil {
			t.Fatal(err)
		}
		return slices.Contains(nodes.Nodes[0].StateFlags, api.FlagNotResponding)
	}
	upd := func(state, reason string) bool {
		var out api.NodeUpdateResponse
		if err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n01", State: state, Reason: reason}, &out); err != nil {
			t.Fatalf("%s: %v", state, err)
		}
		return noResp()
	}
	var got []string
	for _, step := range []struct{ state, reason string }{
		{"DRAIN", "x"}, {"RESUME", ""}, {"DOWN", "x"}, {"RESUME", ""}, {"DRAIN", "x"}, {"UNDRAIN", ""},
		{"FAIL", "x"}, {"RESUME", ""}, {"DOWN", "x"}, {"IDLE", ""},
	} {
		if upd(step.state, step.reason) {
			got = append(got, step.state+" idle*")
			continue
		}
		got = append(got, step.state)
	}
	want := []string{"DRAIN", "RESUME idle*", "DOWN idle*", "RESUME idle*", "DRAIN idle*", "UNDRAIN idle*",
		"FAIL idle*", "RESUME idle*", "DOWN idle*", "IDLE idle*"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("with pings held (-want +got):\n%s", diff)
	}
	close(gate)
	clustertest.Eventually(t, 10*time.Second, "the ping to clear NOT_RESPONDING", func() error {
		if noResp() {
			return fmt.Errorf("still not responding")
		}
		return nil
	})
	got = got[:0]
	for _, step := range []struct{ state, reason string }{{"FAIL", "x"}, {"RESUME", ""}, {"DOWN", "x"}, {"IDLE", ""}} {
		if upd(step.state, step.reason) {
			got = append(got, step.state+" idle*")
			continue
		}
		got = append(got, step.state)
	}
	if diff := cmp.Diff([]string{"FAIL", "RESUME", "DOWN", "IDLE"}, got); diff != "" {
		t.Errorf("FAIL and IDLE (-want +got):\n%s", diff)
	}
}

// silentNode starts fake node name that never heartbeats in a test's
// time and answers pings only once gate is closed, so a test sees the
// NOT_RESPONDING a node update leaves for as long as it likes.
func silentNode(t *testing.T, h *harness, name string, gate <-chan struct{}) *fakenode.Node {
	t.Helper()
	nc, _ := h.c.confNow().conf.Node(name)
	n, err := fakenode.Start(fakenode.Options{Name: name, Key: h.key, CtldAddr: strings.TrimPrefix(h.srv.URL, "http://"),
		Addr: fmt.Sprintf("127.0.0.1:%d", nc.Port), Heartbeat: time.Hour, PingGate: gate})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Stop)
	return n
}
