package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// requeueAnswer is a requeue's per-job answer: its error code, or "ok".
func requeueAnswer(t *testing.T, h *harness, in api.RequeueRequest) string {
	t.Helper()
	if c := firstErr(results(t, h, 0, api.PathRequeue, in)); c != "" {
		return string(c)
	}
	return "ok"
}

// TestRequeueAnswers: the answers of scontrol requeue in the Slurm 22.05
// peer's order (_job_requeue_op): an allocation is BatchOnly ("Only batch
// jobs are accepted or processed"), a job requeued a moment ago is
// "pending execution" again, and with Incomplete a job that is not
// running is left alone without an error.
func TestRequeueAnswers(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	var sub api.SubmitResponse
	if err := h.call(alice, api.PathAllocate, api.AllocateRequest{Job: job.Request{Name: "interactive", WorkDir: "/tmp"}}, &sub); err != nil {
		t.Fatal(err)
	}
	alloc := fmt.Sprint(sub.JobID)
	run := h.mustSubmit(alice, simpleJob())
	done := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, run, 5*time.Second)
	n.Launch(t, done, 5*time.Second)
	if err := n.End(done, job.ExitCode{}); err != nil {
		t.Fatal(err)
	}
	h.waitState(fmt.Sprint(done), job.Completed)
	runID, doneID := fmt.Sprint(run), fmt.Sprint(done)
	got := map[string]string{
		"allocation":           requeueAnswer(t, h, api.RequeueRequest{JobIDs: []string{alloc}}),
		"incomplete, finished": requeueAnswer(t, h, api.RequeueRequest{JobIDs: []string{doneID}, Incomplete: true}),
		"running":              requeueAnswer(t, h, api.RequeueRequest{JobIDs: []string{runID}}),
		"being requeued":       requeueAnswer(t, h, api.RequeueRequest{JobIDs: []string{runID}}),
		"incomplete, requeued": requeueAnswer(t, h, api.RequeueRequest{JobIDs: []string{runID}, Incomplete: true}),
	}
	want := map[string]string{
		"allocation":           string(api.CodeBatchOnly),
		"incomplete, finished": "ok",
		"running":              "ok",
		"being requeued":       string(api.CodeJobPending),
		"incomplete, requeued": "ok",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requeue answers (-want +got):\n%s", diff)
	}
	if j := h.job(doneID); j.JobState != job.Completed || j.Restarts != 0 {
		t.Errorf("requeue Incomplete of a finished job changed it: %s restarts=%d", j.JobState, j.Restarts)
	}
}

// TestRequeueSpecialExit: requeue State=SpecialExit holds the job in
// state SPECIAL_EXIT with the peer's description ("job requeued in special
// exit state"; with requeuehold "job requeued in held state"); release
// makes it PENDING again and it keeps its BeginTime.
func TestRequeueSpecialExit(t *testing.T) {
	for name, tc := range map[string]struct {
		hold bool
		desc string
	}{
		"requeue":     {false, "job requeued in special exit state"},
		"requeuehold": {true, "job requeued in held state"},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			n := h.node("n01")
			id := h.mustSubmit(alice, simpleJob())
			h.cycle()
			n.Launch(t, id, 5*time.Second)
			ids := []string{fmt.Sprint(id)}
			if got := requeueAnswer(t, h, api.RequeueRequest{JobIDs: ids, Hold: tc.hold, SpecialExit: true}); got != "ok" {
				t.Fatalf("requeue: %s", got)
			}
			h.waitState(ids[0], job.Pending)
			show := func() string {
				j := h.job(ids[0])
				return fmt.Sprintf("%s special=%t %s %q prio=%d", j.JobState, j.SpecialExit, j.StateReason, j.StateDescription, j.Priority)
			}
			got := []string{show()}
			if rs := results(t, h, 0, api.PathRelease, api.ReleaseRequest{JobIDs: ids}); firstErr(rs) != "" {
				t.Fatalf("release: %+v", rs)
			}
			h.cycle()
			got = append(got, show())
			want := []string{
				fmt.Sprintf("PENDING special=true JobHeldUser %q prio=0", tc.desc),
				fmt.Sprintf(`PENDING special=false BeginTime "" prio=%d`, h.job(ids[0]).Priority),
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("special exit (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRequeueArrayAnswerOrder: requeue of a whole array whose task 2 was
// requeued a moment before answers as the peer did ("21587_1,3: No
// error" then "21587_2: Job is pending execution"): slurmctld lists the
// groups by their lowest task, whatever the order of the records.
func TestRequeueArrayAnswerOrder(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	arr := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "1-3" }))
	h.cycle()
	for task := 1; task <= 3; task++ {
		j := h.waitState(fmt.Sprintf("%d_%d", arr, task), job.Running)
		n.Launch(t, j.JobID, time.Minute)
	}
	if got := requeueAnswer(t, h, api.RequeueRequest{JobIDs: []string{fmt.Sprintf("%d_2", arr)}}); got != "ok" {
		t.Fatalf("requeue of task 2: %s", got)
	}
	rs := results(t, h, 0, api.PathRequeue, api.RequeueRequest{JobIDs: []string{fmt.Sprint(arr)}})
	if len(rs) != 1 {
		t.Fatalf("results %+v, want one", rs)
	}
	var got []string
	for _, g := range rs[0].Tasks {
		e := "No error"
		if g.Error != nil {
			e = g.Error.Message
		}
		got = append(got, fmt.Sprintf("%d_%s: %s", g.ArrayJobID, g.Tasks, e))
	}
	want := []string{fmt.Sprintf("%d_1,3: No error", arr), fmt.Sprintf("%d_2: Job is pending execution", arr)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requeue answer (-want +got):\n%s", diff)
	}
}
