package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestArrayTaskOutcomesLife: an operation on an array answers per task
// group, as the Slurm 22.05 peer prints them for a held "--array=0-5":
// requeue of a task still in the pending record fails for every task the
// record holds ("P_0-5: Job is pending execution"), a task split off
// answers for itself ("P_1-2"), and a task the array lacks is an invalid
// id next to the tasks that went through ("P_1-3: No error", "P_9:
// Invalid job id specified").
func TestArrayTaskOutcomesLife(t *testing.T) {
	h := newHarness(t)
	arr := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "0-5"; r.Hold = true }))
	type group struct{ Tasks, Err string }
	call := func(path string, in any) []group {
		var out []group
		for _, r := range results(t, h, 0, path, in) {
			for _, g := range r.Tasks {
				e := ""
				if g.Error != nil {
					e = string(g.Error.Code)
				}
				if g.ArrayJobID != arr {
					t.Errorf("group of array %d, want %d", g.ArrayJobID, arr)
				}
				out = append(out, group{g.Tasks, e})
			}
		}
		return out
	}
	ref := func(s string) []string { return []string{fmt.Sprintf("%d%s", arr, s)} }
	pending, invalid := string(api.CodeJobPending), string(api.CodeInvalidJobID)
	steps := []struct {
		name string
		path string
		in   any
		want []group
	}{
		{"requeue the array", api.PathRequeue, api.RequeueRequest{JobIDs: ref("")}, []group{{"0-5", pending}}},
		{"requeue one pending task", api.PathRequeue, api.RequeueRequest{JobIDs: ref("_2")}, []group{{"0-5", pending}}},
		{"hold two tasks", api.PathHold, api.HoldRequest{JobIDs: ref("_[1-2]")}, []group{{"1-2", ""}}},
		{"requeue the split tasks", api.PathRequeue, api.RequeueRequest{JobIDs: ref("_[1-2]")}, []group{{"1-2", pending}}},
		{"requeue split and pending", api.PathRequeue, api.RequeueRequest{JobIDs: ref("_[1-3]")}, []group{{"0-5", pending}}},
		{"hold with a missing task", api.PathHold, api.HoldRequest{JobIDs: ref("_[1-3,9]")}, []group{{"1-3", ""}, {"9", invalid}}},
	}
	for _, s := range steps {
		if diff := cmp.Diff(s.want, call(s.path, s.in)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", s.name, diff)
		}
	}
	// A job that is no array answers without groups.
	plain := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	for _, r := range results(t, h, 0, api.PathRequeue, api.RequeueRequest{JobIDs: []string{fmt.Sprint(plain)}}) {
		if r.Tasks != nil || r.Error == nil {
			t.Errorf("plain job result %+v, want an error and no task groups", r)
		}
	}
}

// TestArrayThrottleWithRunningTasksLife: "update jobid=A
// ArrayTaskThrottle=N" with tasks running answers nothing on the Slurm
// 22.05 peer; the running tasks take the array's new throttle.
func TestArrayThrottleWithRunningTasksLife(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	arr := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "0-3" }))
	h.cycle()
	n := 2
	rs := results(t, h, 0, api.PathUpdate, api.UpdateRequest{JobIDs: []string{fmt.Sprint(arr)}, Update: api.JobUpdate{ArrayMaxTasks: &n}})
	if c := firstErr(rs); c != "" {
		t.Fatalf("throttle update with tasks running: %+v", rs)
	}
	running := 0
	for _, row := range h.tableRawAs(0, api.JobQuery{JobIDs: []string{fmt.Sprint(arr)}, Fields: []string{"job_id", "job_state", "array_max_tasks"}}).Rows {
		if row[1] != string(job.Running) {
			continue
		}
		running++
		if row[2] != "2" {
			t.Errorf("running task %s shows throttle %q, want 2", row[0], row[2])
		}
	}
	if running == 0 {
		t.Fatal("no task of the array started")
	}
}

// TestArrayTaskOutcomeOrderLife: the groups list the started tasks before
// the pending record, as the Slurm 22.05 peer answers "requeue A" of an
// "--array=0-5%2" with tasks 0 and 1 running: "A_0-1: No error", then
// "A_2-5: Job is pending execution".
func TestArrayTaskOutcomeOrderLife(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	// Two 4-CPU tasks fill n01's 8 CPUs.
	arr := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "0-5%2"; r.CPUsPerTask = 4 }))
	h.cycle()
	for _, id := range []uint32{arr + 1, arr + 2} {
		h.waitState(fmt.Sprint(id), job.Running)
		n.Launch(t, id, time.Minute)
	}
	rs := results(t, h, 0, api.PathRequeue, api.RequeueRequest{JobIDs: []string{fmt.Sprint(arr)}})
	if len(rs) != 1 {
		t.Fatalf("results %+v, want one", rs)
	}
	var got []string
	for _, g := range rs[0].Tasks {
		e := "No error"
		if g.Error != nil {
			e = g.Error.Message
		}
		got = append(got, fmt.Sprintf("%d_%s: %s", g.ArrayJobID, g.Tasks, e))
	}
	want := []string{fmt.Sprintf("%d_0-1: No error", arr), fmt.Sprintf("%d_2-5: Job is pending execution", arr)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requeue answer (-want +got):\n%s", diff)
	}
}
