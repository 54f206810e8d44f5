//go:build integration

package test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestAdvResvMaintWindow: a maintenance reservation on n01 keeps a job
// that would overlap it waiting with Slurm's reason, runs a job submitted
// into it there, shows the node MAINTENANCE+RESERVED, and once deleted
// frees the node for the waiting job.
func TestAdvResvMaintWindow(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, CPUs: 4}, "")
	ctx := context.Background()
	now := time.Now().Unix()
	created, err := lc.cl.CreateAdvResv(ctx, &api.AdvResvSpec{Name: "maint1", Start: now, End: now + 3600,
		Nodes: "n01", Users: []string{"root"}, Flags: []string{"MAINT"}})
	if err != nil || created.Name != "maint1" {
		t.Fatalf("create: %+v %v", created, err)
	}
	onN01 := func(r *job.Request) { r.NodeList = "n01" }
	waiting := lc.submit(lc.script("true", onN01, withLimit(10*time.Minute)))
	lc.waitJob(waiting, "waiting for the maintenance window", func(j api.Job) bool {
		return j.JobState == job.Pending && j.StateReason == "ReqNodeNotAvail" &&
			strings.Contains(j.StateDescription, "May be reserved for other job")
	})

	inside := lc.submit(lc.script("true", withLimit(10*time.Minute), func(r *job.Request) { r.Reservation = "maint1" }))
	if j := lc.waitState(inside, job.Completed); j.BatchHost != "n01" || j.Reservation != "maint1" {
		t.Errorf("the job in the reservation ran on %q (reservation %q), want n01 (maint1)", j.BatchHost, j.Reservation)
	}
	if _, err := lc.cl.CreateAdvResv(ctx, &api.AdvResvSpec{Name: "maint1", Start: now, End: now + 60, Nodes: "n02",
		Users: []string{"root"}}); err == nil || !strings.Contains(err.Error(), api.CodeReservationNameDup.Text()) {
		t.Errorf("duplicate name: %v", err)
	}
	nodes, err := lc.cl.Nodes(ctx, &api.NodeQuery{Nodes: []string{"n01"}})
	if err != nil || len(nodes.Nodes) != 1 || !strings.Contains(strings.Join(nodes.Nodes[0].StateFlags, "+"), "MAINTENANCE+RESERVED") {
		t.Errorf("n01 during the window: %+v %v", nodes, err)
	}

	if _, err := lc.cl.DeleteAdvResv(ctx, &api.AdvResvDelete{Name: "maint1"}); err != nil {
		t.Fatalf("delete: %v", err)
	}
	lc.waitState(waiting, job.Completed)
}
