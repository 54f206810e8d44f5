package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestRequeueRerunEligibleS16D: a requeued job that starts again a
// second after its begin time keeps that begin time as EligibleTime and
// AccrueTime (the peer's job 21711: requeued 04:54:25, started 04:56:34,
// EligibleTime=AccrueTime=04:56:26, its begin time), where Loam showed
// its start.
func TestRequeueRerunEligibleS16D(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	at := h.clock.Now().Unix()
	ids := []string{fmt.Sprint(id)}
	if rs := results(t, h, alice, api.PathRequeue, api.RequeueRequest{JobIDs: ids}); firstErr(rs) != "" {
		t.Fatalf("requeue: %+v", rs)
	}
	h.waitState(ids[0], job.Pending)
	h.clock.Advance(122 * time.Second)
	h.cycle()
	got := requeueTimes(h.job(ids[0]), at)
	want := "RUNNING None restarts=1 submit=+0 eligible=+121 accrue=+121 start=+122"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rerun times (-want +got):\n%s", diff)
	}
}

// TestBeginEligibleS16D: a --begin job started after its begin time
// shows the begin time as EligibleTime and AccrueTime (the peer's
// sbatch --begin=now+3: EligibleTime=AccrueTime=04:52:51, StartTime
// 04:52:52).
func TestBeginEligibleS16D(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	begin := h.clock.Now().Add(3 * time.Second).Truncate(time.Second)
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Begin = &begin }))
	h.clock.Advance(5 * time.Second)
	h.cycle()
	j := h.job(fmt.Sprint(id))
	got := fmt.Sprintf("%s eligible=%+d accrue=%+d start=%+d", j.JobState,
		j.EligibleTime-begin.Unix(), j.AccrueTime-begin.Unix(), j.StartTime-begin.Unix())
	if want := "RUNNING eligible=+0 accrue=+0 start=+2"; got != want {
		t.Errorf("--begin job: got %q, want %q", got, want)
	}
}

// TestRequeueCompletingCancelledS16D: scontrol requeue of a job scancel
// stopped a moment ago (still COMPLETING) is accepted, as on the peer
// (rc 0; the job stayed CG, Restarts=1 at once as for any requeue of a
// running job, then was PENDING Reason=BeginTime once its processes were
// gone) where Loam answered "Job is in transition state".
func TestRequeueCompletingCancelledS16D(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	n.IgnoreTerminate = true // its processes outlive the SIGTERM
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	ids := []string{fmt.Sprint(id)}
	if rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: ids}}); firstErr(rs) != "" {
		t.Fatalf("cancel: %+v", rs)
	}
	answer := requeueAnswer(t, h, api.RequeueRequest{JobIDs: ids})
	cg := h.job(ids[0])
	got := []string{answer, fmt.Sprintf("%s restarts=%d", cg.JobState, cg.Restarts)}
	if err := n.End(id, job.ExitCode{Signal: 9}); err != nil {
		t.Fatal(err)
	}
	j := h.waitState(ids[0], job.Pending)
	got = append(got, fmt.Sprintf("%s %s restarts=%d", j.JobState, j.StateReason, j.Restarts))
	want := []string{"ok", "COMPLETING restarts=1", "PENDING BeginTime restarts=1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requeue of a cancelled job (-want +got):\n%s", diff)
	}
}
