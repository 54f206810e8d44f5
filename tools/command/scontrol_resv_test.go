package command

import (
	"context"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
)

func resvData() *fakeLive {
	return &fakeLive{fakeController: &fakeController{}, resv: api.ReservationsResponse{Reservations: []api.Reservation{{
		Name: "loam_12", JobID: 12, Partition: "gpu", User: "alice", Account: "vision",
		StartTime: 1795953000, EndTime: 1795954800, PlannedStart: 1795954800, Expires: 1795956600,
		Nodes: "n[01-04]", NodeCount: 4, CPUs: 32, GPUs: 32, MemMB: 64000,
		Held:     []api.NodeAllocation{{Node: "n01", CPUs: 8, GPUs: []int{0, 1, 2, 3, 4, 5, 6, 7}}, {Node: "n02", CPUs: 8}},
		Awaiting: []api.NodeAllocation{{Node: "n03", CPUs: 8}, {Node: "n04", CPUs: 8}},
	}}},
		log: api.JobLogResponse{JobID: 12, Events: []api.JobEntry{
			{Time: 1795953000, Kind: "resv_create", Detail: `{"reservation":"loam_12","partition":"gpu"}`},
			{Time: 1795956600, Kind: "resv_drop", Detail: `{"reservation":"loam_12","reason":"timeout"}`},
		}}}
}

// TestShowReservation: Slurm's reservation record (compare
// testdata/peer/scontrol-show-reservation.txt), then Loam's line.
func TestShowReservation(t *testing.T) {
	tests := map[string][]string{
		"scontrol-show-reservation.txt":     {"show", "reservation"},
		"scontrol-show-reservation-one.txt": {"-o", "show", "reservation", "loam_12"},
		"scontrol-show-joblog.txt":          {"show", "joblog", "12"},
	}
	for name, args := range tests {
		t.Run(name, func(t *testing.T) {
			te := liveEnv(resvData(), 1795953600)
			if code := Scontrol(context.Background(), te.Env, args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			checkGolden(t, name, te.stdout.String())
		})
	}
	te := liveEnv(resvData(), 1795953600)
	if code := Scontrol(context.Background(), te.Env, []string{"show", "reservation", "loam_99"}); code != 1 ||
		te.stdout.String()+te.stderr.String() != "Reservation loam_99 not found\n" {
		t.Errorf("missing reservation: exit %d, %q %q", code, te.stdout, te.stderr)
	}
	te = liveEnv(&fakeLive{fakeController: &fakeController{}}, 1795953600)
	if code := Scontrol(context.Background(), te.Env, []string{"show", "res"}); code != 0 || te.stdout.String() != "No reservations in the system\n" {
		t.Errorf("none: exit %d, %q", code, te.stdout)
	}
}
