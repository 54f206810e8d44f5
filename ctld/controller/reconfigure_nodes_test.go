package controller

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// TestReconfigureOrdersNodes: a reconfigure orders every responding node
// daemon to reread its files, as slurmctld sends REQUEST_RECONFIGURE to
// every slurmd, with the generation that registration answers carry from
// then on; a node whose daemon never registered is not asked.
func TestReconfigureOrdersNodes(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	before := n.Register().ConfigGeneration
	if _, err := h.c.Reconfigure(); err != nil {
		t.Fatal(err)
	}
	after := n.Register().ConfigGeneration
	if before == "" || after == before {
		t.Fatalf("generation before %q, after %q: it must move", before, after)
	}
	if diff := cmp.Diff([]api.NodedReconfigureRequest{{Generation: after}}, n.Reconfigures()); diff != "" {
		t.Errorf("orders to n01: (-want +got)\n%s", diff)
	}
	out, aerr := h.c.handleHeartbeat(context.Background(), auth.Identity{}, []byte(`{"node":"n01","health":{"ok":true}}`))
	if aerr != nil {
		t.Fatal(aerr)
	}
	if got := out.(*api.HeartbeatResponse).ConfigGeneration; got != after {
		t.Errorf("heartbeat answer's generation %q, want %q", got, after)
	}
}
