package controller

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// TestGresUsedIndicesOnlyForTypedGPUs: scontrol -d's GresUsed carries
// the held indices only for a typed GPU; the peer's untyped "Gres=gpu:8"
// nodes print "GresUsed=gpu:4" with four GPUs held and "gpu:0" idle.
func TestGresUsedIndicesOnlyForTypedGPUs(t *testing.T) {
	held := func(idx ...int) map[int]*jobRecord {
		m := map[int]*jobRecord{}
		for _, i := range idx {
			m[i] = nil
		}
		return m
	}
	untyped := []slurmconf.GRES{{Name: "gpu", Count: 8}}
	typed := []slurmconf.GRES{{Name: "gpu", Type: "h100", Count: 8}}
	for name, tc := range map[string]struct {
		list []slurmconf.GRES
		gpus map[int]*jobRecord
		want string
	}{
		"untyped, four held (peer)":                   {untyped, held(0, 1, 2, 3), "gpu:4"},
		"untyped, idle (peer)":                        {untyped, held(), "gpu:0"},
		"untyped, after one of two jobs ended (peer)": {untyped, held(2, 3), "gpu:2"},
		"typed, two held":                             {typed, held(1, 0), "gpu:h100:2(IDX:0-1)"},
		"typed, idle":                                 {typed, held(), "gpu:h100:0(IDX:N/A)"},
		"typed and a count":                           {append(typed, slurmconf.GRES{Name: "nic", Count: 1}), held(4), "gpu:h100:1(IDX:4),nic:0"},
	} {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, gresUsed(tc.list, tc.gpus)); diff != "" {
				t.Errorf("GresUsed (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNodeViewGresUsedAfterLaunch: the node record of an untyped GPU node
// running a four-GPU job says GRESUsed "gpu:4", as the peer's scontrol
// show node -d prints it, and "gpu:0" on its idle neighbour.
func TestNodeViewGresUsedAfterLaunch(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	h.node("n02")
	id := h.mustSubmit(alice, withMods(gpuJob(4), func(r *job.Request) { r.NodeList = "n01" }))
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	var nodes api.NodesResponse
	if err := h.call(0, api.PathNodes, api.NodeQuery{}, &nodes); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, nd := range nodes.Nodes {
		got[nd.Name] = nd.GRESUsed
	}
	if diff := cmp.Diff(map[string]string{"n01": "gpu:4", "n02": "gpu:0"}, got); diff != "" {
		t.Errorf("GresUsed (-want +got):\n%s", diff)
	}
}
