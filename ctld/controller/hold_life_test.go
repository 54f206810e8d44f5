package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// shown is a job's state, reason (with its description) and priority as
// scontrol shows them.
func shown(h *harness, id uint32) string {
	j := h.job(fmt.Sprint(id))
	return fmt.Sprintf("%s %s %q prio=%d", j.JobState, j.StateReason, j.StateDescription, j.Priority)
}

// TestHoldRunningLife: scontrol hold of a running job is accepted, as on
// the Slurm 22.05 peer (exit 0, no output): the job runs on with priority
// 0 and Reason=JobHeldAdmin, and keeps that reason when it completes
// ("JobState=COMPLETED Reason=JobHeldAdmin").
func TestHoldRunningLife(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	if rs := results(t, h, 0, api.PathHold, api.HoldRequest{JobIDs: []string{fmt.Sprint(id)}}); firstErr(rs) != "" {
		t.Fatalf("hold of a running job: %+v", rs)
	}
	got := []string{shown(h, id)}
	if err := n.End(id, job.ExitCode{}); err != nil {
		t.Fatal(err)
	}
	h.waitState(fmt.Sprint(id), job.Completed)
	got = append(got, shown(h, id))
	want := []string{`RUNNING JobHeldAdmin "" prio=0`, `COMPLETED JobHeldAdmin "" prio=0`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("held running job (-want +got):\n%s", diff)
	}
}

// TestHeldRunningJobRequeuedStaysHeldLife: a running job that was held
// and is then requeued comes back held; release lets it run.
func TestHeldRunningJobRequeuedStaysHeldLife(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	ids := []string{fmt.Sprint(id)}
	if rs := results(t, h, 0, api.PathHold, api.HoldRequest{JobIDs: ids}); firstErr(rs) != "" {
		t.Fatalf("hold: %+v", rs)
	}
	if rs := results(t, h, 0, api.PathRequeue, api.RequeueRequest{JobIDs: ids}); firstErr(rs) != "" {
		t.Fatalf("requeue: %+v", rs)
	}
	h.waitState(fmt.Sprint(id), job.Pending)
	got := []string{shown(h, id)}
	if rs := results(t, h, 0, api.PathRelease, api.ReleaseRequest{JobIDs: ids}); firstErr(rs) != "" {
		t.Fatalf("release: %+v", rs)
	}
	got = append(got, shown(h, id))
	want := []string{`PENDING JobHeldAdmin "" prio=0`, `PENDING None "" prio=` + fmt.Sprint(h.job(ids[0]).Priority)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requeued held job (-want +got):\n%s", diff)
	}
}

// TestRequeueHoldDescLife: a job scontrol requeuehold put back shows the
// peer's description (scontrol: Reason=job_requeued_in_held_state; squeue
// %r: "job requeued in held state"); release clears it (Reason=None).
func TestRequeueHoldDescLife(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	ids := []string{fmt.Sprint(id)}
	if rs := results(t, h, 0, api.PathRequeue, api.RequeueRequest{JobIDs: ids, Hold: true}); firstErr(rs) != "" {
		t.Fatalf("requeuehold: %+v", rs)
	}
	h.waitState(fmt.Sprint(id), job.Pending)
	got := []string{shown(h, id)}
	if rs := results(t, h, 0, api.PathRelease, api.ReleaseRequest{JobIDs: ids}); firstErr(rs) != "" {
		t.Fatalf("release: %+v", rs)
	}
	j := h.job(ids[0])
	got = append(got, fmt.Sprintf("%s %s %q", j.JobState, j.StateReason, j.StateDescription))
	want := []string{`PENDING JobHeldUser "job requeued in held state" prio=0`, `PENDING None ""`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requeuehold (-want +got):\n%s", diff)
	}
}

// TestHoldFinishedLife: hold and release of an ended job answer "Job has
// already finished", as on the Slurm 22.05 peer (scontrol exits 1).
func TestHoldFinishedLife(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	if err := n.End(id, job.ExitCode{}); err != nil {
		t.Fatal(err)
	}
	h.waitState(fmt.Sprint(id), job.Completed)
	ids := []string{fmt.Sprint(id)}
	got := []api.Code{
		firstErr(results(t, h, 0, api.PathHold, api.HoldRequest{JobIDs: ids})),
		firstErr(results(t, h, 0, api.PathRelease, api.ReleaseRequest{JobIDs: ids})),
	}
	if diff := cmp.Diff([]api.Code{api.CodeJobFinished, api.CodeJobFinished}, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

// TestReleaseUnheldLife: release of a pending job that is not held shows
// Reason=None until the next scheduling pass, as on the Slurm 22.05 peer
// (a --begin job then cancelled ends "CANCELLED Reason=None"); the next
// pass finds BeginTime again.
func TestReleaseUnheldLife(t *testing.T) {
	h := newHarness(t)
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { at := time.Now().Add(time.Hour); r.Begin = &at }))
	h.cycle()
	got := []job.Reason{h.job(fmt.Sprint(id)).StateReason}
	if rs := results(t, h, alice, api.PathRelease, api.ReleaseRequest{JobIDs: []string{fmt.Sprint(id)}}); firstErr(rs) != "" {
		t.Fatalf("release: %+v", rs)
	}
	got = append(got, h.job(fmt.Sprint(id)).StateReason)
	h.cycle()
	got = append(got, h.job(fmt.Sprint(id)).StateReason)
	if diff := cmp.Diff([]job.Reason{job.ReasonBeginTime, job.ReasonNone, job.ReasonBeginTime}, got); diff != "" {
		t.Errorf("reasons before, after release, after a pass (-want +got):\n%s", diff)
	}
}

// requeueing starts alice's job on a node that reports no end by itself
// and requeues it (requeuehold with hold): the job stays COMPLETING until
// the test ends it on n.
func requeueing(t *testing.T, hold bool) (*harness, *clustertest.FakeNode, uint32) {
	t.Helper()
	h, n, id := runningOnQuietNode(t)
	if rs := results(t, h, 0, api.PathRequeue, api.RequeueRequest{JobIDs: []string{fmt.Sprint(id)}, Hold: hold}); firstErr(rs) != "" {
		t.Fatalf("requeue: %+v", rs)
	}
	h.c.inflight.Wait()
	return h, n, id
}

// TestHoldDuringRequeueLife: while a requeued job's processes end,
// slurmctld has it PENDING|COMPLETING, so the Slurm 22.05 peer shows the
// requeuehold description at once, and accepts hold and release then:
// after `requeuehold; release` the job pends unheld, after `requeue; hold`
// it pends JobHeldAdmin.
func TestHoldDuringRequeueLife(t *testing.T) {
	for _, tc := range []struct {
		name        string
		requeueHold bool
		op          string
		want        []string
	}{
		{"requeuehold then release", true, api.PathRelease, []string{
			`COMPLETING JobHeldUser "job requeued in held state"`,
			`COMPLETING None ""`,
			`PENDING BeginTime ""`,
		}},
		{"requeue then hold", false, api.PathHold, []string{
			`COMPLETING None ""`,
			`COMPLETING JobHeldAdmin ""`,
			`PENDING JobHeldAdmin ""`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, n, id := requeueing(t, tc.requeueHold)
			ids := []string{fmt.Sprint(id)}
			state := func() string {
				j := h.job(ids[0])
				return fmt.Sprintf("%s %s %q", j.JobState, j.StateReason, j.StateDescription)
			}
			got := []string{state()}
			var body any = api.HoldRequest{JobIDs: ids}
			if tc.op == api.PathRelease {
				body = api.ReleaseRequest{JobIDs: ids}
			}
			if rs := results(t, h, 0, tc.op, body); firstErr(rs) != "" {
				t.Fatalf("%s while requeueing: %+v", tc.op, rs)
			}
			got = append(got, state())
			if err := n.End(id, job.ExitCode{Signal: 15}); err != nil {
				t.Fatal(err)
			}
			h.waitState(ids[0], job.Pending)
			got = append(got, state())
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestCancelDuringRequeueLife: scancel of a job whose requeue is still
// ending its processes holds, as on the Slurm 22.05 peer: the job ends
// CANCELLED (Reason=None) with the killed script's exit status (0:15),
// not back in the queue.
func TestCancelDuringRequeueLife(t *testing.T) {
	h, n, id := requeueing(t, false)
	ids := []string{fmt.Sprint(id)}
	if rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: ids}}); firstErr(rs) != "" {
		t.Fatalf("cancel while requeueing: %+v", rs)
	}
	got := []string{string(h.job(ids[0]).JobState)}
	if err := n.End(id, job.ExitCode{Signal: 15}); err != nil {
		t.Fatal(err)
	}
	j := h.waitState(ids[0], job.Cancelled)
	got = append(got, fmt.Sprintf("%s %s %s restarts=%d", j.JobState, j.StateReason, j.ExitCode, j.Restarts))
	// Requeued again, it counts both restarts, as Slurm does.
	if rs := results(t, h, 0, api.PathRequeue, api.RequeueRequest{JobIDs: ids}); firstErr(rs) != "" {
		t.Fatalf("requeue of the cancelled job: %+v", rs)
	}
	j = h.waitState(ids[0], job.Pending)
	got = append(got, fmt.Sprintf("%s restarts=%d", j.JobState, j.Restarts))
	want := []string{"COMPLETING", "CANCELLED None 0:15 restarts=1", "PENDING restarts=2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
