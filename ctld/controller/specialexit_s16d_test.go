package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSpecialExitStatesS16D: a job root requeued with State=SpecialExit
// is selected as the peer's squeue selects it (-t SE and -t
// special_exit list it, -t PD does not, no -t lists it), while a cancel
// by state compares the base state as scancel does (-t PD cancels it);
// it is held JobHeldUser (the peer's state_reason after root's requeue),
// so its own user releases it.
func TestSpecialExitStatesS16D(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	ids := []string{fmt.Sprint(id)}
	if got := requeueAnswer(t, h, api.RequeueRequest{JobIDs: ids, SpecialExit: true}); got != "ok" {
		t.Fatalf("requeue: %s", got)
	}
	h.waitState(ids[0], job.Pending)
	listed := func(states ...string) bool {
		var out api.JobsResponse
		if err := h.call(0, api.PathJobs, api.JobQuery{States: states}, &out); err != nil {
			t.Fatalf("query %v: %v", states, err)
		}
		return len(out.Jobs) == 1
	}
	got := map[string]bool{
		"SE":           listed("SE"),
		"special_exit": listed("special_exit"),
		"PD":           listed("PD"),
		"no -t":        listed(),
	}
	want := map[string]bool{"SE": true, "special_exit": true, "PD": false, "no -t": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("squeue -t (-want +got):\n%s", diff)
	}
	if j := h.job(ids[0]); j.StateReason != job.ReasonJobHeldUser || !j.SpecialExit {
		t.Errorf("after requeue: reason %s special %t, want JobHeldUser true", j.StateReason, j.SpecialExit)
	}
	if rs := results(t, h, alice, api.PathRelease, api.ReleaseRequest{JobIDs: ids}); firstErr(rs) != "" {
		t.Fatalf("release by the job's user: %+v", rs)
	}
	if j := h.job(ids[0]); j.SpecialExit || j.StateReason == job.ReasonJobHeldUser {
		t.Errorf("after release: reason %s special %t, want pending again", j.StateReason, j.SpecialExit)
	}
}

// TestSpecialExitCancelBaseStateS16D: scancel -t PD cancels a job in
// SPECIAL_EXIT (on the peer it did; -t SE matched nothing).
func TestSpecialExitCancelBaseStateS16D(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	ids := []string{fmt.Sprint(id)}
	if got := requeueAnswer(t, h, api.RequeueRequest{JobIDs: ids, SpecialExit: true}); got != "ok" {
		t.Fatalf("requeue: %s", got)
	}
	h.waitState(ids[0], job.Pending)
	f := api.JobFilter{JobIDs: ids, States: []string{"PENDING"}}
	if rs := results(t, h, 0, api.PathCancel, api.CancelRequest{Filter: f}); firstErr(rs) != "" {
		t.Fatalf("cancel -t PD: %+v", rs)
	}
	if j := h.job(ids[0]); j.JobState != job.Cancelled {
		t.Errorf("after cancel -t PD: %s, want CANCELLED", j.JobState)
	}
}
