package controller

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestUpdateAdminKeys follows the peer: AdminComment= is for operators
// ("Access/permission denied" for the job's user) and shows; WorkDir=
// changes a pending job ("Job is no longer pending execution" once it
// runs); EndTime= is for running jobs ("Job is not running" before),
// moves the time limit with it (now+1hour on a 30-minute job: 01:00:00),
// and an end already past is "Invalid time specified".
func TestUpdateAdminKeys(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	id := fmt.Sprint(h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true })))
	upd := func(uid uint32, u api.JobUpdate) api.Code {
		return updateCode(t, h, uid, id, u)
	}
	str := func(s string) *string { return &s }
	at := func(d int64) *int64 { v := h.clock.Now().Unix() + d; return &v }
	got := []api.Code{
		upd(alice, api.JobUpdate{AdminComment: str("x")}),
		upd(0, api.JobUpdate{AdminComment: str("ops note")}),
		upd(alice, api.JobUpdate{WorkDir: str("/var")}),
		upd(0, api.JobUpdate{EndTime: at(3600)}),
	}
	if j := h.job(id); j.AdminComment != "ops note" || j.WorkDir != "/var" {
		t.Errorf("pending job: AdminComment %q WorkDir %q", j.AdminComment, j.WorkDir)
	}
	if code := firstErr(results(t, h, 0, api.PathRelease, api.ReleaseRequest{JobIDs: []string{id}})); code != "" {
		t.Fatalf("release: %s", code)
	}
	h.cycle()
	j := h.waitState(id, job.Running)
	got = append(got,
		upd(alice, api.JobUpdate{WorkDir: str("/tmp")}),
		upd(alice, api.JobUpdate{EndTime: at(-60)}),
		upd(alice, api.JobUpdate{EndTime: at(j.TimeLimit + 600)}),
		upd(0, api.JobUpdate{EndTime: at(j.TimeLimit + 600)}))
	want := []api.Code{api.CodeAccessDenied, "", "", api.CodeJobNotRunning,
		api.CodeJobNotPending, api.CodeInvalidTimeValue, api.CodeAccessDenied, ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("codes (-want +got):\n%s", diff)
	}
	if after := h.job(id); after.TimeLimit != j.TimeLimit+600 {
		t.Errorf("time limit %d after EndTime 10 minutes later, want %d", after.TimeLimit, j.TimeLimit+600)
	}
}

// TestUpdateTasksPerNode: TasksPerNode= is an operator's, as on the peer
// (root's update shows NtasksPerN:B:S:C=2, another user's is refused).
func TestUpdateTasksPerNode(t *testing.T) {
	h := newHarness(t)
	id := fmt.Sprint(h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.NTasks = 4; r.Hold = true })))
	upd := func(uid uint32) api.Code {
		return updateCode(t, h, uid, id, api.JobUpdate{TasksPerNode: ptr(2)})
	}
	if got := []api.Code{upd(alice), upd(0)}; !cmp.Equal(got, []api.Code{api.CodeAccessDenied, ""}) {
		t.Errorf("codes %v, want access denied then none", got)
	}
	if j := h.job(id); j.TasksPerNode != 2 {
		t.Errorf("TasksPerNode %d, want 2", j.TasksPerNode)
	}
}

// TestUpdateTimeLimitByUser: as slurmctld's _update_job, a user may raise
// a pending job's time limit up to its partition's MaxTime (the peer's
// user takes a held -t 10 job to 20), not beyond it nor a running job's.
func TestUpdateTimeLimitByUser(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	id := fmt.Sprint(h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true })))
	lim := func(s int64) *int64 { return &s }
	got := []api.Code{
		updateCode(t, h, alice, id, api.JobUpdate{TimeLimit: lim(2 * 3600)}),
		updateCode(t, h, alice, id, api.JobUpdate{TimeLimit: lim(3 * 86400)}), // over normal's MaxTime of 2 days
	}
	if j := h.job(id); j.TimeLimit != 2*3600 {
		t.Errorf("time limit %d, want 7200", j.TimeLimit)
	}
	if code := firstErr(results(t, h, 0, api.PathRelease, api.ReleaseRequest{JobIDs: []string{id}})); code != "" {
		t.Fatalf("release: %s", code)
	}
	h.cycle()
	h.waitState(id, job.Running)
	got = append(got, updateCode(t, h, alice, id, api.JobUpdate{TimeLimit: lim(3 * 3600)}))
	want := []api.Code{"", api.CodeAccessDenied, api.CodeAccessDenied}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("codes (-want +got):\n%s", diff)
	}
}
