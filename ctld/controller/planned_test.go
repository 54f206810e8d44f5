package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestNodesPlanned: an idle node a pending job's reservation names shows
// the PLANNED flag (Slurm's backfill marks its planned idle nodes so), a
// node running a job does not, sinfo -t planned/plnd selects it, and the
// flag goes with the reservation.
func TestNodesPlanned(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	h.node("n02")
	run := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.NodeList = "n01" }))
	h.cycle()
	h.waitState(fmt.Sprint(run), job.Running)
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.MinNodes, r.NodesSet, r.Hold = 2, true, true }))
	now := h.clock.Now()
	rv := ReservationInfo{JobID: id, Partition: "normal", Created: now, PlannedStart: now.Add(time.Hour),
		Expires: now.Add(2 * time.Hour), Held: []api.NodeAllocation{{Node: "n02", CPUs: 8}},
		Awaiting: []api.NodeAllocation{{Node: "n01", CPUs: 8}}}
	applyResult(h, &CycleResult{Now: now, Pending: []PendingInfo{{JobID: id, Reason: job.ReasonResources}},
		Reservations: []ReservationInfo{rv}})
	flags := func(states ...string) map[string]string {
		var out api.NodesResponse
		if err := h.call(0, api.PathNodes, api.NodeQuery{States: states}, &out); err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, n := range out.Nodes {
			m[n.Name] = fmt.Sprint(n.State, n.StateFlags)
		}
		return m
	}
	if diff := cmp.Diff(map[string]string{"n01": "MIXED[]", "n02": "IDLE[PLANNED]"}, flags()); diff != "" {
		t.Errorf("while reserved (-want +got):\n%s", diff)
	}
	for _, st := range []string{"planned", "PLND"} {
		if diff := cmp.Diff(map[string]string{"n02": "IDLE[PLANNED]"}, flags(st)); diff != "" {
			t.Errorf("states %s (-want +got):\n%s", st, diff)
		}
	}
	applyResult(h, &CycleResult{Now: now, Pending: []PendingInfo{{JobID: id, Reason: job.ReasonResources}}})
	if diff := cmp.Diff(map[string]string{"n01": "MIXED[]", "n02": "IDLE[]"}, flags()); diff != "" {
		t.Errorf("after the drop (-want +got):\n%s", diff)
	}
}
