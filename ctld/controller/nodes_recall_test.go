package controller

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// TestRestartRecallsNodes: a restarted controller asks the daemons of the
// nodes that have not registered since its start to register now (the
// reconfigure order, with its new generation), as slurmctld asks every
// slurmd when it starts, instead of leaving them down until their next
// heartbeat; a node that registered already is not asked.
func TestRestartRecallsNodes(t *testing.T) {
	h := newHarness(t)
	n1, n2 := h.node("n01"), h.node("n02")
	h.restart()
	body := []byte(`{"node":"n02","addr":"` + n2.Addr() + `","cpus":8,"real_memory":16000,"health":{"ok":true},` +
		`"gpus":[{"index":0},{"index":1},{"index":2},{"index":3}]}`)
	if _, aerr := h.c.handleRegister(context.Background(), auth.Identity{}, body); aerr != nil {
		t.Fatal(aerr)
	}
	h.c.recallNodes(context.Background())
	want := []api.NodedReconfigureRequest{{Generation: h.c.configGeneration()}}
	if diff := cmp.Diff(want, n1.Reconfigures()); diff != "" {
		t.Errorf("orders to n01, not registered since the restart: (-want +got)\n%s", diff)
	}
	if got := n2.Reconfigures(); len(got) != 0 {
		t.Errorf("orders to n02, registered since the restart: %v, want none", got)
	}
}
