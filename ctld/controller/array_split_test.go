package controller

import (
	"fmt"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestArrayTaskOps: release, hold and update naming tasks of a pending
// array split those tasks off as records of their own (new ids), as in
// Slurm; requeue of a pending task is refused as for any pending job.
func TestArrayTaskOps(t *testing.T) {
	h := newHarness(t)
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array, r.Hold = "0-5", true }))
	ref := func(s string) []string { return []string{fmt.Sprintf("%d_%s", id, s)} }
	mustOK := func(path string, in any) {
		t.Helper()
		if rs := results(t, h, alice, path, in); firstErr(rs) != "" {
			t.Fatalf("%s: %+v", path, rs)
		}
	}
	mustOK(api.PathRelease, api.ReleaseRequest{JobIDs: ref("2")})
	if j := h.job(fmt.Sprint(id + 1)); j.JobState != job.Pending || j.Hold || j.ArrayTaskID == nil || *j.ArrayTaskID != 2 {
		t.Errorf("released task 2: %+v", j)
	}
	mustOK(api.PathRelease, api.ReleaseRequest{JobIDs: ref("[3-4]")})
	limit := int64(600)
	mustOK(api.PathUpdate, api.UpdateRequest{JobIDs: ref("5"), Update: api.JobUpdate{TimeLimit: &limit}})
	if j := h.job(fmt.Sprint(id + 4)); j.TimeLimit != 600 || !j.Hold || *j.ArrayTaskID != 5 {
		t.Errorf("updated task 5: limit %d hold %v task %v", j.TimeLimit, j.Hold, *j.ArrayTaskID)
	}
	if j := h.job(fmt.Sprint(id)); j.ArrayTaskString != "0-1" || !j.Hold || j.TimeLimit != 3600 {
		t.Errorf("the array keeps tasks %q held %v limit %d, want 0-1 held 3600", j.ArrayTaskString, j.Hold, j.TimeLimit)
	}
	for _, n := range []uint32{id + 2, id + 3} {
		if j := h.job(fmt.Sprint(n)); j.Hold {
			t.Errorf("task of 3-4 as job %d still held", n)
		}
	}
	rs := results(t, h, alice, api.PathRequeue, api.RequeueRequest{JobIDs: ref("0")})
	if firstErr(rs) != api.CodeJobPending {
		t.Errorf("requeue of a pending task: %+v, want %s", rs, api.CodeJobPending)
	}
	mustOK(api.PathRelease, api.ReleaseRequest{JobIDs: ref("[0-1]")})
	if j := h.job(fmt.Sprint(id)); j.Hold || j.ArrayTaskString != "0-1" {
		t.Errorf("naming every pending task releases the array record itself: %+v", j)
	}
	h.restart()
	if j := h.job(fmt.Sprint(id + 4)); j.TimeLimit != 600 || *j.ArrayTaskID != 5 || j.JobState != job.Pending {
		t.Errorf("split task after a restart: %+v", j)
	}
}
