//go:build integration

package test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestAdvResv3NoHoldJobsAfterEnd: a job still pending in a
// NO_HOLD_JOBS_AFTER_END reservation when it ends is not held: it leaves
// the reservation and runs as any other job.
func TestAdvResv3NoHoldJobsAfterEnd(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 1, CPUs: 4}, "")
	ctx := context.Background()
	now := time.Now().Unix()
	if _, err := lc.cl.CreateAdvResv(ctx, &api.AdvResvSpec{Name: "short", Start: now, End: now + 4,
		Nodes: "n01", Users: []string{"root"}, Flags: []string{api.ResvFlagNoHoldJobs}}); err != nil {
		t.Fatalf("create: %v", err)
	}
	inResv := func(r *job.Request) { r.Reservation = "short" }
	run := lc.submit(lc.script("sleep 120", inResv, withLimit(10*time.Minute)))
	lc.waitState(run, job.Running)
	pend := lc.submit(lc.script("true", inResv, withLimit(time.Minute),
		func(r *job.Request) { r.Dependency = fmt.Sprintf("afterany:%d", run) }))

	lc.waitState(run, job.Timeout)
	if j := lc.waitState(pend, job.Completed); j.Reservation != "" {
		t.Errorf("job after the end: reservation %q, want none", j.Reservation)
	}
}

// TestAdvResv3PurgeComp: a PURGE_COMP reservation stays while its job
// runs and goes once it has had no job for its purge time, long before
// its end.
func TestAdvResv3PurgeComp(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 1, CPUs: 4}, "")
	ctx := context.Background()
	now := time.Now().Unix()
	if _, err := lc.cl.CreateAdvResv(ctx, &api.AdvResvSpec{Name: "purged", Start: now, End: now + 3600,
		Nodes: "n01", Users: []string{"root"}, Flags: []string{api.ResvFlagPurgeComp}, PurgeComp: 2}); err != nil {
		t.Fatalf("create: %v", err)
	}
	rs, err := lc.cl.AdvResvs(ctx, &api.ResvQuery{Names: []string{"purged"}})
	if err != nil || len(rs.Reservations) != 1 {
		t.Fatalf("list: %+v %v", rs, err)
	}
	if want := "PURGE_COMP=00:00:02"; !slices.Contains(rs.Reservations[0].Flags, want) {
		t.Errorf("flags %v, want %s", rs.Reservations[0].Flags, want)
	}
	id := lc.submit(lc.script("sleep 5", func(r *job.Request) { r.Reservation = "purged" }, withLimit(time.Minute)))
	lc.waitState(id, job.Running)
	lc.waitState(id, job.Completed)
	if rs, err := lc.cl.AdvResvs(ctx, &api.ResvQuery{}); err != nil || len(rs.Reservations) != 1 {
		t.Fatalf("reservation gone while its job ran (or just after): %+v %v", rs, err)
	}
	clustertest.Eventually(t, 20*time.Second, "reservation purged", func() error {
		rs, err := lc.cl.AdvResvs(ctx, &api.ResvQuery{})
		if err == nil && len(rs.Reservations) > 0 {
			err = fmt.Errorf("still there: %+v", rs.Reservations)
		}
		return err
	})
}
