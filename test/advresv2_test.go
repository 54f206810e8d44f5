//go:build integration

package test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestAdvResv2EndOfReservation: with ResvOverRun=0, a job still running
// in a reservation at its end is ended as TIMEOUT with the time limit's
// line in its output; the reservation then goes, and the job pending in
// it is held as RESV_DEL_HOLD until released (Slurm 22.05's behaviour).
func TestAdvResv2EndOfReservation(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 1, CPUs: 4}, "")
	ctx := context.Background()
	now := time.Now().Unix()
	if _, err := lc.cl.CreateAdvResv(ctx, &api.AdvResvSpec{Name: "short", Start: now, End: now + 4,
		Nodes: "n01", Users: []string{"root"}}); err != nil {
		t.Fatalf("create: %v", err)
	}
	inResv := func(r *job.Request) { r.Reservation = "short" }
	run := lc.submit(lc.script("echo started; sleep 120", inResv, withLimit(10*time.Minute),
		func(r *job.Request) { r.StdOut = filepath.Join(lc.work, "resv.out") }))
	lc.waitFile("resv.out", "started")
	pend := lc.submit(lc.script("true", inResv, withLimit(time.Minute),
		func(r *job.Request) { r.Dependency = fmt.Sprintf("afterok:%d", run) }))

	if j := lc.waitState(run, job.Timeout); j.StateReason != job.ReasonTimeLimit {
		t.Errorf("reason %s, want TimeLimit", j.StateReason)
	}
	lc.waitFile("resv.out", " DUE TO TIME LIMIT ***")
	j := lc.waitJob(pend, "held as RESV_DEL_HOLD", func(j api.Job) bool { return j.JobState == job.ResvDelHold })
	if j.StateDescription != "Reservation short was deleted" || j.Reservation != "" || j.Priority != 0 {
		t.Errorf("held job: %q reservation %q priority %d", j.StateDescription, j.Reservation, j.Priority)
	}
	if rs, err := lc.cl.AdvResvs(ctx, &api.ResvQuery{}); err != nil || len(rs.Reservations) != 0 {
		t.Errorf("reservations after the end: %+v %v", rs, err)
	}
	if _, err := lc.cl.Release(ctx, &api.ReleaseRequest{JobIDs: []string{fmt.Sprint(pend)}}); err != nil {
		t.Fatalf("release: %v", err)
	}
	// Its dependency failed with the TIMEOUT: it now waits for ever, as a
	// plain pending job.
	lc.waitJob(pend, "pending again", func(j api.Job) bool { return j.JobState == job.Pending })
}
