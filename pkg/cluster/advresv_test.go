package cluster

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/sched"
)

func TestAdminReservationsReachTheSnapshot(t *testing.T) {
	c, err := New(sched.Config{Partitions: []sched.Partition{{Name: "p", Nodes: []string{"n1"}}}},
		[]sched.Node{{Name: "n1", CPUs: 4}})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1000, 0).UTC()
	nodes := []string{"n1"}
	c.SetAdminReservations([]sched.AdminReservation{{Name: "m", Start: t0, End: t0.Add(time.Hour), Nodes: nodes, Maint: true}})
	nodes[0] = "changed" // the cluster keeps its own copy
	if err := c.Submit(JobSpec{ID: 7, Partitions: []string{"p"}, Reservation: "m", Submit: t0}); err != nil {
		t.Fatal(err)
	}
	snap := c.Snapshot(t0)
	want := []sched.AdminReservation{{Name: "m", Start: t0, End: t0.Add(time.Hour), Nodes: []string{"n1"}, Maint: true}}
	if diff := cmp.Diff(want, snap.AdminReservations); diff != "" {
		t.Errorf("snapshot reservations (-want +got):\n%s", diff)
	}
	if len(snap.Pending) != 1 || snap.Pending[0].Reservation != "m" {
		t.Errorf("pending job's reservation = %+v, want m", snap.Pending)
	}
}
