package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestS15DeadlineRefusal: a --deadline already passed is refused with the
// peer's words ("sbatch: error: Batch job submission failed: Requested
// time limit is invalid (missing or exceeds some limit)") before the job
// has an id, and one of this very second is taken (the peer's
// --deadline=now is submitted, then ends DEADLINE).
func TestS15DeadlineRefusal(t *testing.T) {
	h := newHarness(t)
	past := h.clock.Now().Add(-time.Second)
	_, err := h.submit(alice, simpleJob(func(r *job.Request) { r.Deadline = &past }))
	if err == nil || err.Code != api.CodeInvalidTimeLimit || err.Detail != "" {
		t.Fatalf("past deadline: %v, want %s without detail", err, api.CodeInvalidTimeLimit)
	}
	if want := "Requested time limit is invalid (missing or exceeds some limit)"; err.Message != want {
		t.Errorf("message %q, want %q", err.Message, want)
	}
	now := h.clock.Now()
	if id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Deadline = &now })); id != 1 {
		t.Errorf("job after the refusal got id %d, want 1 (no id used up)", id)
	}
}

// TestS15TimeOverMaxStillBurns: the admission refusal of a time limit
// over MaxTime (same code, with Loam's detail) still uses an id up.
func TestS15TimeOverMaxStillBurns(t *testing.T) {
	h := newHarness(t)
	week := 7 * 24 * time.Hour
	_, err := h.submit(alice, simpleJob(func(r *job.Request) { r.TimeLimit = &week }))
	if err == nil || err.Code != api.CodeInvalidTimeLimit || err.Detail == "" {
		t.Fatalf("time over MaxTime: %v, want %s with a detail", err, api.CodeInvalidTimeLimit)
	}
	if id := h.mustSubmit(alice, simpleJob()); id != 2 {
		t.Errorf("next id %d, want 2", id)
	}
}

// TestS15NameAndSession: -J "" keeps the name empty (the peer's JobName=),
// an unnamed request still becomes "sbatch"; the submitter's session id
// comes back for AllocNode:Sid.
func TestS15NameAndSession(t *testing.T) {
	h := newHarness(t)
	tests := map[string]struct {
		mod      func(*job.Request)
		wantName string
		wantSID  int
	}{
		"empty -J":         {mod: func(r *job.Request) { r.Name, r.EmptyName, r.AllocSID = "", true, 25592 }, wantName: "", wantSID: 25592},
		"no name at all":   {mod: func(r *job.Request) { r.Name = "" }, wantName: "sbatch"},
		"a name is a name": {mod: func(r *job.Request) { r.Name, r.AllocSID = "train", 7 }, wantName: "train", wantSID: 7},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			j := h.job(fmt.Sprint(h.mustSubmit(alice, simpleJob(tc.mod))))
			got := [2]any{j.Name, j.AllocSID}
			if diff := cmp.Diff([2]any{tc.wantName, tc.wantSID}, got); diff != "" {
				t.Errorf("name, sid (-want +got):\n%s", diff)
			}
		})
	}
}

// TestS15AccrueStartedAtOnce: on the peer a batch job started at once
// shows AccrueTime = its submit time, an allocation (salloc, srun)
// started at once AccrueTime=Unknown.
func TestS15AccrueStartedAtOnce(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	batch := h.mustSubmit(alice, simpleJob())
	var sub api.SubmitResponse
	if err := h.call(alice, api.PathAllocate, api.AllocateRequest{Job: job.Request{Name: "interactive", WorkDir: "/tmp"}}, &sub); err != nil {
		t.Fatal(err)
	}
	h.cycle()
	now := h.clock.Now().Unix()
	b := h.waitState(fmt.Sprint(batch), job.Running)
	a := h.waitState(fmt.Sprint(sub.JobID), job.Running)
	got := map[string]int64{"batch": b.AccrueTime, "allocation": a.AccrueTime}
	want := map[string]int64{"batch": now, "allocation": 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("AccrueTime (-want +got):\n%s", diff)
	}
}

// TestS15ThrottledArrayTimes: as on the peer (--array=0-3%2), the pending
// record held by the throttle shows EligibleTime Unknown; tasks started
// within the throttle keep the submit time as EligibleTime, a task the
// throttle let go later is eligible when it starts; all accrue from the
// submit time (scontrol and squeue --json show AccrueTime=submit).
func TestS15ThrottledArrayTimes(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	submit := h.clock.Now().Unix()
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "0-3%2" }))
	h.cycle()
	meta := h.job(fmt.Sprint(id))
	if meta.StateReason != job.ReasonJobArrayTaskLimit {
		t.Fatalf("pending record's reason %s, want JobArrayTaskLimit", meta.StateReason)
	}
	first := h.job(fmt.Sprint(id + 1))
	h.clock.Advance(30 * time.Second)
	n.End(id+1, job.ExitCode{})
	h.waitState(fmt.Sprint(id+1), job.Completed)
	h.cycle()
	later := h.waitState(fmt.Sprint(id+3), job.Running)
	type times struct{ Eligible, Accrue int64 }
	got := map[string]times{"throttled record": {meta.EligibleTime, meta.AccrueTime},
		"task within the throttle": {first.EligibleTime, first.AccrueTime},
		"task let go later":        {later.EligibleTime, later.AccrueTime}}
	want := map[string]times{"throttled record": {0, submit},
		"task within the throttle": {submit, submit},
		"task let go later":        {submit + 30, submit}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("times (-want +got):\n%s", diff)
	}
}

// TestS15DeadlineTooClose: as on the peer (--deadline=now+60 -t 5), a
// job that could not end before its deadline ends DEADLINE (ExitCode 0:1)
// at once without running; a held one waits; a pending one ends when
// its deadline comes closer than its time limit.
func TestS15DeadlineTooClose(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	five := 5 * time.Minute
	soon := h.clock.Now().Add(time.Minute)
	tooClose := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Deadline, r.TimeLimit = &soon, &five }))
	heldBy := h.clock.Now().Add(7 * time.Minute) // too close at the end, not passed
	held := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Deadline, r.TimeLimit, r.Hold = &heldBy, &five, true }))
	later := h.clock.Now().Add(10 * time.Minute)
	fill := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.CPUsPerTask = 8 }))
	waiting := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Deadline, r.TimeLimit = &later, &five }))
	first := h.job(fmt.Sprint(tooClose))
	h.cycle()
	h.waitState(fmt.Sprint(fill), job.Running)
	h.tick(4 * time.Minute) // 6 minutes left: it could still end in time
	h.tick(2 * time.Minute) // 4 minutes left: no longer
	type end struct {
		State job.State
		Exit  string
	}
	got := map[string]end{"too close": {first.JobState, first.ExitCode.String()}}
	for name, id := range map[string]uint32{"held": held, "waiting": waiting} {
		j := h.job(fmt.Sprint(id))
		got[name] = end{j.JobState, j.ExitCode.String()}
	}
	want := map[string]end{"too close": {job.Deadline, "0:1"}, "held": {job.Pending, "0:0"}, "waiting": {job.Deadline, "0:1"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("jobs (-want +got):\n%s", diff)
	}
	for _, id := range n.Running() {
		if id == tooClose || id == waiting {
			t.Errorf("job %d was started", id)
		}
	}
}
