package controller

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// depIDs are the jobs of one update case: a fresh held job, a held job
// that waits on it and a held 3-task array.
type depIDs struct{ j1, j2, arr uint32 }

// depFmt formats with the ids picked from a case's jobs.
func depFmt(format string, pick ...func(depIDs) uint32) func(depIDs) string {
	return func(in depIDs) string {
		args := make([]any, len(pick))
		for i, p := range pick {
			args[i] = p(in)
		}
		return fmt.Sprintf(format, args...)
	}
}

func pickJ1(in depIDs) uint32  { return in.j1 }
func pickJ2(in depIDs) uint32  { return in.j2 }
func pickArr(in depIDs) uint32 { return in.arr }

// TestUpdateDependencyRefusalsLife: scontrol update Dependency= answers as
// on the Slurm 22.05 peer: a job or task set waiting on itself is "Job
// dependency problem", a cycle through another job "Circular job
// dependency", "expand:" "Requested operation not supported on this
// system", and another task of the same array is fine.
func TestUpdateDependencyRefusalsLife(t *testing.T) {
	h := newHarness(t)
	held := func(r *job.Request) { r.Hold = true }
	tests := map[string]struct {
		job, spec func(depIDs) string
		want      api.Code
	}{
		"itself":                 {depFmt("%d", pickJ1), depFmt("afterok:%d", pickJ1), api.CodeDependency},
		"itself after singleton": {depFmt("%d", pickJ1), depFmt("singleton,afterok:%d", pickJ1), api.CodeDependency},
		"a job that waits on it": {depFmt("%d", pickJ1), depFmt("afterok:%d", pickJ2), api.CodeCircularDependency},
		"expand":                 {depFmt("%d", pickJ1), depFmt("expand:%d", pickJ2), api.CodeNotSupported},
		"malformed":              {depFmt("%d", pickJ1), depFmt("afterok:abc"), api.CodeDependency},
		"a task on its array":    {depFmt("%d_1", pickArr), depFmt("afterok:%d", pickArr), api.CodeDependency},
		"a task on another task": {depFmt("%d_2", pickArr), depFmt("afterok:%d_3", pickArr), ""},
		"a job on another job":   {depFmt("%d", pickJ2), depFmt("afterany:%d", pickJ1), ""},
		"clearing":               {depFmt("%d", pickJ2), depFmt(""), ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var in depIDs
			in.j1 = h.mustSubmit(alice, simpleJob(held))
			in.j2 = h.mustSubmit(alice, simpleJob(held, func(r *job.Request) { r.Dependency = fmt.Sprintf("afterok:%d", in.j1) }))
			in.arr = h.mustSubmit(alice, simpleJob(held, func(r *job.Request) { r.Array = "1-3" }))
			id, spec := tc.job(in), tc.spec(in)
			rs := results(t, h, alice, api.PathUpdate, api.UpdateRequest{JobIDs: []string{id}, Update: api.JobUpdate{Dependency: &spec}})
			if diff := cmp.Diff(tc.want, firstErr(rs)); diff != "" {
				t.Errorf("update %s Dependency=%s (-want +got):\n%s", id, spec, diff)
			}
		})
	}
}

// TestUpdateDependencyLiftsHoldLife: a job pending with
// DependencyNeverSatisfied starts once scontrol update clears its
// dependency or sets one already met, as on the Slurm 22.05 peer.
func TestUpdateDependencyLiftsHoldLife(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	gone := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	if rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(gone)}}}); firstErr(rs) != "" {
		t.Fatalf("cancel: %+v", rs)
	}
	specs := map[string]string{"cleared": "", "met": fmt.Sprintf("afterany:%d", gone)}
	ids := map[string]uint32{}
	for name, spec := range specs {
		id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf("afterok:%d", gone) }))
		if got := h.job(fmt.Sprint(id)).StateReason; got != job.ReasonDependencyNeverSatisfied {
			t.Fatalf("%s: reason %s before the update", name, got)
		}
		if rs := results(t, h, alice, api.PathUpdate, api.UpdateRequest{JobIDs: []string{fmt.Sprint(id)}, Update: api.JobUpdate{Dependency: &spec}}); firstErr(rs) != "" {
			t.Fatalf("%s: update: %+v", name, rs)
		}
		ids[name] = id
	}
	h.cycle()
	for name, id := range ids {
		h.waitState(fmt.Sprint(id), job.Running)
		if got := h.job(fmt.Sprint(id)).Dependency; got != "" {
			t.Errorf("%s: Dependency=%q, want (null)", name, got)
		}
	}
}
