package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestFailedDependencyStaysFailedLife: on the Slurm 22.05 peer a condition
// once failed is never tested again: with job A failed, requeued and then
// completed, "afterok:A(failed)" stays DependencyNeverSatisfied; a
// "(failed)" the user wrote on a job still pending does the same, and in a
// "?" list the other condition can still let the job start.
func TestFailedDependencyStaysFailedLife(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	a := h.mustSubmit(alice, simpleJob(func(r *job.Request) { yes := true; r.Requeue = &yes }))
	other := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	spec := func(format string, ids ...any) job.Request {
		return simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf(format, ids...) })
	}
	afterOK := h.mustSubmit(alice, spec("afterok:%d", a))
	written := h.mustSubmit(alice, spec("afterany:%d(failed)", other))
	eitherWritten := h.mustSubmit(alice, spec("afterany:%d(failed)?afterany:%d", other, a))
	run := func(exit job.ExitCode, st job.State) {
		h.cycle()
		h.waitState(fmt.Sprint(a), job.Running)
		n.Launch(t, a, 5*time.Second)
		if err := n.End(a, exit); err != nil {
			t.Fatal(err)
		}
		h.waitState(fmt.Sprint(a), st)
	}
	run(job.ExitCode{Status: 1}, job.Failed)
	if rs := results(t, h, alice, api.PathRequeue, api.RequeueRequest{JobIDs: []string{fmt.Sprint(a)}}); firstErr(rs) != "" {
		t.Fatalf("requeue: %+v", rs)
	}
	h.pastRequeueDelay() // requeue_delay_test.go
	run(job.ExitCode{}, job.Completed)
	got := map[string]string{}
	for name, id := range map[string]uint32{"afterok on the requeued job": afterOK, "failed as written": written, "either, one written failed": eitherWritten} {
		j := h.job(fmt.Sprint(id))
		got[name] = fmt.Sprintf("%s %s", j.StateReason, j.Dependency)
	}
	want := map[string]string{
		"afterok on the requeued job": fmt.Sprintf("DependencyNeverSatisfied afterok:%d(failed)", a),
		"failed as written":           fmt.Sprintf("DependencyNeverSatisfied afterany:%d(failed)", other),
		"either, one written failed":  "None ",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dependent jobs (-want +got):\n%s", diff)
	}
}
