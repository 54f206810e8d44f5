package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
)

// TestDependencyDelayLife: on the Slurm 22.05 peer only "after" waits out
// its "+min", counted from the start of its target: with job R started and
// ended 15 s later, 21 s after its end "after:R+1(unfulfilled)" still
// waits while "afterok:R+1" and "afterany:R+1" are met (Dependency=(null))
// and "afternotok:R+1(failed)" never will be.
func TestDependencyDelayLife(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	r := h.mustSubmit(alice, simpleJob())
	h.cycle()
	h.waitState(fmt.Sprint(r), job.Running)
	n.Launch(t, r, 5*time.Second)
	h.tick(15 * time.Second)
	if err := n.End(r, job.ExitCode{}); err != nil {
		t.Fatal(err)
	}
	h.waitState(fmt.Sprint(r), job.Completed)
	h.tick(21 * time.Second)
	ids := map[string]uint32{}
	for _, typ := range []string{"after", "afterok", "afterany", "afternotok"} {
		ids[typ] = h.mustSubmit(alice, simpleJob(func(q *job.Request) {
			q.Dependency = fmt.Sprintf("%s:%d+1", typ, r)
			begin := h.clock.Now().Add(time.Hour)
			q.Begin = &begin
		}))
	}
	show := func() map[string]string {
		got := map[string]string{}
		for typ, id := range ids {
			j := h.job(fmt.Sprint(id))
			got[typ] = fmt.Sprintf("%s %s", j.StateReason, j.Dependency)
		}
		return got
	}
	want := map[string]string{
		"after":      fmt.Sprintf("Dependency after:%d+1(unfulfilled)", r),
		"afterok":    "BeginTime ",
		"afterany":   "BeginTime ",
		"afternotok": fmt.Sprintf("DependencyNeverSatisfied afternotok:%d+1(failed)", r),
	}
	if diff := cmp.Diff(want, show()); diff != "" {
		t.Errorf("21 s after the end (-want +got):\n%s", diff)
	}
	h.tick(30 * time.Second) // 66 s after the start
	want["after"] = "BeginTime "
	if diff := cmp.Diff(want, show()); diff != "" {
		t.Errorf("a minute after the start (-want +got):\n%s", diff)
	}
}
