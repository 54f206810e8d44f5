package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestKillInvalidDependencyTimesLife: a job submitted with
// --kill-on-invalid-dep=yes on a job that already failed is cancelled at
// once; on the Slurm 22.05 peer it shows "JobState=CANCELLED
// Reason=DependencyNeverSatisfied Dependency=afterok:F(failed)" with
// EligibleTime=Unknown and AccrueTime=Unknown, as it never was eligible.
func TestKillInvalidDependencyTimesLife(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	f := h.mustSubmit(alice, simpleJob())
	h.cycle()
	h.waitState(fmt.Sprint(f), job.Running)
	n.Launch(t, f, 5*time.Second)
	if err := n.End(f, job.ExitCode{Status: 3}); err != nil {
		t.Fatal(err)
	}
	h.waitState(fmt.Sprint(f), job.Failed)
	yes := true
	k := h.mustSubmit(alice, simpleJob(func(r *job.Request) {
		r.Dependency = fmt.Sprintf("afterok:%d", f)
		r.KillOnInvalidDep = &yes
	}))
	j := h.job(fmt.Sprint(k))
	got := fmt.Sprintf("%s %s %s eligible=%d accrue=%d", j.JobState, j.StateReason, j.Dependency, j.EligibleTime, j.AccrueTime)
	want := fmt.Sprintf("CANCELLED DependencyNeverSatisfied afterok:%d(failed) eligible=0 accrue=0", f)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("killed job (-want +got):\n%s", diff)
	}
}

// TestKillInvalidDependConfLife: DependencyParameters=kill_invalid_depend
// cancels every job whose dependency can never be met, as slurmctld does,
// unless the job asked --kill-on-invalid-dep=no.
func TestKillInvalidDependConfLife(t *testing.T) {
	h := newHarness(t)
	appendConf(t, h, "DependencyParameters=kill_invalid_depend\n")
	h.restart()
	gone := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	if rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(gone)}}}); firstErr(rs) != "" {
		t.Fatalf("cancel: %+v", rs)
	}
	no := false
	ids := map[string]uint32{
		"default":                  h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf("afterok:%d", gone) })),
		"--kill-on-invalid-dep=no": h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf("afterok:%d", gone); r.KillOnInvalidDep = &no })),
	}
	got := map[string]string{}
	for name, id := range ids {
		j := h.job(fmt.Sprint(id))
		got[name] = fmt.Sprintf("%s %s", j.JobState, j.StateReason)
	}
	want := map[string]string{
		"default":                  "CANCELLED DependencyNeverSatisfied",
		"--kill-on-invalid-dep=no": "PENDING DependencyNeverSatisfied",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("jobs whose dependency failed (-want +got):\n%s", diff)
	}
}
