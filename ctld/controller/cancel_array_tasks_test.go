package controller

import (
	"fmt"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestCancelPendingArrayTasksByName: as on the peer, pending tasks
// cancelled by name leave the array's record without records or ids of
// their own; the record cut down to one task keeps its list form
// ("12_[4]"), and one cut to none ends CANCELLED holding no task (squeue
// "12", ArrayTaskId=4294967294). Cancelling the array by its id keeps the
// list ("12_[1-4]" CANCELLED).
func TestCancelPendingArrayTasksByName(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	held := func(r *job.Request) { r.Array = "1-4"; r.Hold = true }
	cancel := func(ref string) {
		t.Helper()
		rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{ref}}})
		if e := firstErr(rs); e != "" {
			t.Fatalf("cancel %s: %s", ref, e)
		}
	}
	type view struct {
		State   job.State
		Tasks   string
		Task    any
		Records int
	}
	show := func(id uint32) view {
		t.Helper()
		j := h.job(fmt.Sprint(id))
		v := view{State: j.JobState, Tasks: j.ArrayTaskString, Task: nil}
		if j.ArrayTaskID != nil {
			v.Task = *j.ArrayTaskID
		}
		h.c.mu.RLock()
		v.Records = len(h.c.arrayMembers(id))
		h.c.mu.RUnlock()
		return v
	}
	id := h.mustSubmit(alice, simpleJob(held))
	steps := []struct {
		cancel string
		want   view
	}{
		{fmt.Sprintf("%d_2", id), view{job.Pending, "1,3-4", nil, 1}},
		{fmt.Sprintf("%d_[1,3]", id), view{job.Pending, "4", nil, 1}},
		{fmt.Sprintf("%d_4", id), view{job.Cancelled, "", nil, 1}},
	}
	for _, s := range steps {
		cancel(s.cancel)
		if got := show(id); got != s.want {
			t.Errorf("after cancel %s: %+v, want %+v", s.cancel, got, s.want)
		}
	}
	whole := h.mustSubmit(alice, simpleJob(held))
	if whole != id+1 {
		t.Errorf("next job id %d, want %d: the cancelled tasks took none", whole, id+1)
	}
	cancel(fmt.Sprint(whole))
	if got, want := show(whole), (view{job.Cancelled, "1-4", nil, 1}); got != want {
		t.Errorf("array cancelled by its id: %+v, want %+v", got, want)
	}
}
