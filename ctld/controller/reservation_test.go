package controller

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestReservationView: a job holding a scheduler reservation shows
// ResourcesReserved, scontrol show reservation lists it as loam_<id>, and
// its creation and timeout drop land in the job's event log.
func TestReservationView(t *testing.T) {
	h := newHarness(t)
	id := h.mustSubmit(alice, simpleJob())
	now := h.clock.Now()
	rv := ReservationInfo{JobID: id, Partition: "normal", Created: now, PlannedStart: now.Add(30 * time.Minute),
		Expires: now.Add(time.Hour), Held: []api.NodeAllocation{{Node: "n01", CPUs: 8, GPUs: []int{0, 1, 2, 3}}},
		Awaiting: []api.NodeAllocation{{Node: "n02", CPUs: 8, GPUs: []int{0, 1, 2, 3}}}}
	applyResult(h, &CycleResult{Now: now, Pending: []PendingInfo{{JobID: id, Reason: job.ReasonResources}},
		Reservations: []ReservationInfo{rv}, ResvChanges: []ResvChange{{JobID: id, Partition: "normal", Created: true}}})
	if j := h.job(fmt.Sprint(id)); j.StateReason != ReasonResourcesReserved {
		t.Errorf("reason %q", j.StateReason)
	}
	var out api.ReservationsResponse
	if err := h.call(alice, api.PathReservations, api.ResvQuery{}, &out); err != nil {
		t.Fatal(err)
	}
	want := api.Reservation{Name: fmt.Sprintf("loam_%d", id), JobID: id, Partition: "normal", User: "", StartTime: now.Unix(),
		EndTime: now.Add(30 * time.Minute).Unix(), PlannedStart: now.Add(30 * time.Minute).Unix(), Expires: now.Add(time.Hour).Unix(),
		Nodes: "n[01-02]", NodeCount: 2, CPUs: 16, GPUs: 8, Held: rv.Held, Awaiting: rv.Awaiting}
	if len(out.Reservations) != 1 {
		t.Fatalf("reservations %+v", out.Reservations)
	}
	got := out.Reservations[0]
	got.User = ""
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reservation\n got %+v\nwant %+v", got, want)
	}
	applyResult(h, &CycleResult{Now: now.Add(time.Hour), Pending: []PendingInfo{{JobID: id, Reason: job.ReasonResources}},
		ResvChanges: []ResvChange{{JobID: id, Partition: "normal", Reason: DropTimeout}}})
	if j := h.job(fmt.Sprint(id)); j.StateReason != job.ReasonResources {
		t.Errorf("after the drop: reason %q", j.StateReason)
	}
	var log api.JobLogResponse
	if err := h.call(alice, api.PathJobLog, api.JobLogQuery{JobID: id}, &log); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range log.Events {
		kinds = append(kinds, e.Kind)
	}
	if !strings.Contains(strings.Join(kinds, ","), "resv_create,resv_drop") || !strings.Contains(log.Events[len(log.Events)-1].Detail, "timeout") {
		t.Errorf("log %+v", log.Events)
	}
	if err := h.call(alice, api.PathJobLog, api.JobLogQuery{JobID: 999999}, &log); err == nil || err.Code != api.CodeInvalidJobID {
		t.Errorf("log of an unknown job: %v", err)
	}
}
