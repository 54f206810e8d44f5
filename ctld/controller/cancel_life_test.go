package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestCancelCompletingLife: cancelling a job that is already being
// stopped (COMPLETING) answers "Job/step already completing or
// completed", as the Slurm 22.05 peer does (scancel -v prints
// "Kill job error on job id N: Job/step already completing or completed"
// and still exits 0); the first cancel is accepted.
func TestCancelCompletingLife(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	n.IgnoreTerminate = true // the job stays COMPLETING
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	cancel := api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(id)}}}
	var got []api.Code
	got = append(got, firstErr(results(t, h, alice, api.PathCancel, cancel)))
	if j := h.job(fmt.Sprint(id)); j.JobState != job.Completing {
		t.Fatalf("after the first scancel the job is %s", j.JobState)
	}
	got = append(got, firstErr(results(t, h, alice, api.PathCancel, cancel)))
	if diff := cmp.Diff([]api.Code{"", api.CodeAlreadyDone}, got); diff != "" {
		t.Errorf("answers to two cancels (-want +got):\n%s", diff)
	}
	if msg := api.CodeAlreadyDone.Text(); msg != "Job/step already completing or completed" {
		t.Errorf("text %q", msg)
	}
}

// TestCancelPendingKeepsReasonLife: a pending job cancelled keeps the
// reason it was waiting for, as on the Slurm 22.05 peer
// ("JobState=CANCELLED Reason=JobHeldUser", "Reason=Dependency",
// "Reason=BeginTime").
func TestCancelPendingKeepsReasonLife(t *testing.T) {
	h := newHarness(t)
	held := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	other := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	dep := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf("afterok:%d", other) }))
	begin := h.mustSubmit(alice, simpleJob(func(r *job.Request) { at := time.Now().Add(time.Hour); r.Begin = &at }))
	ids := []string{fmt.Sprint(held), fmt.Sprint(dep), fmt.Sprint(begin)}
	if rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: ids}}); firstErr(rs) != "" {
		t.Fatalf("cancel: %+v", rs)
	}
	var got []string
	for _, id := range ids {
		j := h.job(id)
		got = append(got, string(j.JobState)+" "+string(j.StateReason))
	}
	want := []string{"CANCELLED JobHeldUser", "CANCELLED Dependency", "CANCELLED BeginTime"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("states after scancel (-want +got):\n%s", diff)
	}
}
