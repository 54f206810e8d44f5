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

func suspendCode(t *testing.T, h *harness, uid uint32, resume bool, ids ...string) api.Code {
	t.Helper()
	return firstErr(results(t, h, uid, api.PathSuspend, api.SuspendRequest{JobIDs: ids, Resume: resume}))
}

// TestSuspendErrors: the answers Slurm 22.05 gives (checked against the
// peer): a pending job, an unknown id, a non-operator, a resume of a job
// that is not suspended, an ended job; a second suspend is no error.
func TestSuspendErrors(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	run := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, run, 5*time.Second)
	pend := h.mustSubmit(alice, simpleJob())
	if c := firstErr(results(t, h, 0, api.PathHold, api.HoldRequest{JobIDs: []string{fmt.Sprint(pend)}})); c != "" {
		t.Fatalf("hold: %s", c)
	}
	ended := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(ended)}}})

	steps := []struct {
		name   string
		uid    uint32
		resume bool
		id     uint32
		want   api.Code
	}{
		{"the owner is no operator", alice, false, run, api.CodeAccessDenied},
		{"a pending job", 0, false, pend, api.CodeJobPending},
		{"resume of a pending job", 0, true, pend, api.CodeJobPending},
		{"an unknown id", 0, false, 999999, api.CodeUnexpectedMessage},
		{"resume of an unknown id", 0, true, 999999, api.CodeUnexpectedMessage},
		{"resume of a running job", 0, true, run, api.CodeJobNotSuspended},
		{"an ended job", 0, false, ended, api.CodeAlreadyDone},
		{"a running job", 0, false, run, ""},
		{"a suspended job again", 0, false, run, ""},
		{"resume by a non-operator", alice, true, run, api.CodeAccessDenied},
		{"resume", 0, true, run, ""},
		{"resume again", 0, true, run, api.CodeJobNotSuspended},
	}
	for _, s := range steps {
		if got := suspendCode(t, h, s.uid, s.resume, fmt.Sprint(s.id)); got != s.want {
			t.Errorf("%s: code %q, want %q", s.name, got, s.want)
		}
	}
	var out api.JobResults
	if err := h.call(0, api.PathSuspend, api.SuspendRequest{}, &out); err == nil || err.Code != api.CodeInvalidJobID {
		t.Errorf("no job ids: %v, want %s", err, api.CodeInvalidJobID)
	}
}

// TestSuspendTimes: SuspendTime and SecsPreSuspend as Slurm shows them,
// the clock standing still while suspended, the end moving by the time
// suspended, and the state surviving a controller restart.
func TestSuspendTimes(t *testing.T) {
	// The cancelled job stays COMPLETING for the check.
	h, n, id := runningOnQuietNode(t, func(r *job.Request) { d := time.Hour; r.TimeLimit = &d })
	sid := fmt.Sprint(id)
	start := h.job(sid).StartTime

	h.clock.Advance(10 * time.Second)
	if c := suspendCode(t, h, 0, false, sid); c != "" {
		t.Fatalf("suspend: %s", c)
	}
	suspended := h.clock.Now().Unix()
	type times struct {
		State                                       job.State
		SuspendTime, SecsPreSuspend, Suspended, End int64
	}
	get := func() times {
		j := h.job(sid)
		return times{j.JobState, j.SuspendTime, j.SecsPreSuspend, j.SuspendedSecs, j.EndTime}
	}
	want := times{job.Suspended, suspended, 10, 0, start + 3600}
	if diff := cmp.Diff(want, get()); diff != "" {
		t.Errorf("suspended (-want +got):\n%s", diff)
	}

	h.clock.Advance(30 * time.Second)
	if diff := cmp.Diff(want, get()); diff != "" {
		t.Errorf("suspended 30 s later (-want +got):\n%s", diff)
	}
	if c := suspendCode(t, h, 0, true, sid); c != "" {
		t.Fatalf("resume: %s", c)
	}
	resumed := h.clock.Now().Unix()
	want = times{job.Running, resumed, 10, 30, start + 3600 + 30}
	if diff := cmp.Diff(want, get()); diff != "" {
		t.Errorf("resumed (-want +got):\n%s", diff)
	}

	// A second suspension counts the run since the resume.
	h.clock.Advance(5 * time.Second)
	suspendCode(t, h, 0, false, sid)
	h.clock.Advance(20 * time.Second)
	results(t, h, 0, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{sid}}})
	want = times{job.Completing, h.clock.Now().Unix(), 15, 50, start + 3600 + 50}
	if diff := cmp.Diff(want, get()); diff != "" {
		t.Errorf("cancelled while suspended (-want +got):\n%s", diff)
	}
	clusterTerminated(t, n, id)
}

// TestSuspendSurvivesRestart: a suspended job is still suspended after a
// controller restart, and its resume then moves its end.
func TestSuspendSurvivesRestart(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	sid := fmt.Sprint(id)
	start := h.job(sid).StartTime
	h.clock.Advance(7 * time.Second)
	suspendCode(t, h, 0, false, sid)
	h.restart()
	if j := h.job(sid); j.JobState != job.Suspended || j.SecsPreSuspend != 7 || j.Nodes != "n01" {
		t.Errorf("after restart: state %s, SecsPreSuspend %d, nodes %q; want SUSPENDED, 7, n01", j.JobState, j.SecsPreSuspend, j.Nodes)
	}
	h.clock.Advance(40 * time.Second)
	if c := suspendCode(t, h, 0, true, sid); c != "" {
		t.Fatalf("resume after restart: %s", c)
	}
	if j := h.job(sid); j.JobState != job.Running || j.EndTime != start+3600+40 {
		t.Errorf("resumed after restart: state %s, end %d; want RUNNING, %d", j.JobState, j.EndTime, start+3600+40)
	}
}

func clusterTerminated(t *testing.T, n *clustertest.FakeNode, id uint32) {
	t.Helper()
	// The order goes out after the cancel is answered.
	clustertest.Eventually(t, 10*time.Second, fmt.Sprintf("a cancel order for job %d", id), func() error {
		got := n.Terminations()
		for _, r := range got {
			if r.JobID == id && r.Reason == api.TerminateCancel {
				return nil
			}
		}
		return fmt.Errorf("orders %+v", got)
	})
}

// TestSuspendRunEnd: the controller's time-limit backstop leaves a
// suspended job alone and moves a resumed job's end by its suspensions.
func TestSuspendRunEnd(t *testing.T) {
	tests := map[string]struct {
		st     jobStatus
		want   int64
		wantOK bool
	}{
		"running, never suspended": {jobStatus{State: job.Running, Start: 1000, TimeLimit: 60}, 1060, true},
		"running, suspended 30 s":  {jobStatus{State: job.Running, Start: 1000, TimeLimit: 60, Suspended: 30}, 1090, true},
		"suspended now":            {jobStatus{State: job.Suspended, Start: 1000, TimeLimit: 60}, 0, false},
		"no limit":                 {jobStatus{State: job.Running, Start: 1000, TimeLimit: api.UnlimitedSeconds}, 0, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			end, ok := runEnd(&jobRecord{St: tc.st})
			if ok != tc.wantOK || unix(end) != tc.want {
				t.Errorf("runEnd = %d, %v; want %d, %v", unix(end), ok, tc.want, tc.wantOK)
			}
		})
	}
}
