package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestDependencyOnArrayShownLife: a plain id that names an array job is
// every task of it, and scontrol shows it so (the Slurm 22.05 peer:
// "afterok:14889_*(unfulfilled)", "aftercorr:14889_*(unfulfilled)"); a
// task or a plain job keeps its form.
func TestDependencyOnArrayShownLife(t *testing.T) {
	h := newHarness(t)
	arr := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "0-2"; r.Hold = true }))
	plain := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	tests := map[string]struct{ spec, want string }{
		"afterok on an array":   {fmt.Sprintf("afterok:%d", arr), fmt.Sprintf("afterok:%d_*(unfulfilled)", arr)},
		"aftercorr on an array": {fmt.Sprintf("aftercorr:%d", arr), fmt.Sprintf("aftercorr:%d_*(unfulfilled)", arr)},
		"afterok on one task":   {fmt.Sprintf("afterok:%d_1", arr), fmt.Sprintf("afterok:%d_1(unfulfilled)", arr)},
		"aftercorr on a job":    {fmt.Sprintf("aftercorr:%d", plain), fmt.Sprintf("aftercorr:%d(unfulfilled)", plain)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Dependency = tc.spec; r.Hold = true }))
			if diff := cmp.Diff(tc.want, h.job(fmt.Sprint(id)).Dependency); diff != "" {
				t.Errorf("Dependency= (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAftercorrPerTaskLife: each task of an aftercorr array follows the
// task with its index, as on the Slurm 22.05 peer: with task 1 of the
// first array failed, tasks 0 and 2 of the second run and task 1 pends
// alone with DependencyNeverSatisfied and "aftercorr:A_*(failed)".
func TestAftercorrPerTaskLife(t *testing.T) {
	h := newHarness(t)
	nodes := map[string]*clustertest.FakeNode{"n01": h.node("n01"), "n02": h.node("n02")}
	a := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "0-2" }))
	b := h.mustSubmit(alice, simpleJob(func(r *job.Request) {
		r.Array = "0-2"
		r.Dependency = fmt.Sprintf("aftercorr:%d", a)
	}))
	h.cycle()
	exits := map[int]job.ExitCode{0: {}, 1: {Status: 1}, 2: {}}
	for _, row := range h.tableRawAs(0, api.JobQuery{JobIDs: []string{fmt.Sprint(a)}, Fields: []string{"job_id", "array_task_id"}}).Rows {
		id, task := mustUint(t, row[0]), mustInt(t, row[1])
		j := h.waitState(fmt.Sprint(id), job.Running)
		n := nodes[j.BatchHost]
		n.Launch(t, uint32(id), 5*time.Second)
		if err := n.End(uint32(id), exits[task]); err != nil {
			t.Fatal(err)
		}
		h.waitState(fmt.Sprint(id), map[bool]job.State{true: job.Completed, false: job.Failed}[task != 1])
	}
	got := map[string]string{}
	for _, row := range h.tableRawAs(0, api.JobQuery{JobIDs: []string{fmt.Sprint(b)}, Fields: []string{"array_task_id", "array_task_string", "state_reason", "dependency"}}).Rows {
		tasks := row[0]
		if tasks == "" {
			tasks = row[1] // a pending record holding several tasks
		}
		arr, err := job.ParseArray(tasks, 10)
		if err != nil {
			t.Fatalf("tasks %q: %v", tasks, err)
		}
		for i := range arr.All() {
			got[fmt.Sprint(i)] = row[2] + " " + row[3]
		}
	}
	want := map[string]string{
		"0": "None ",
		"1": fmt.Sprintf("DependencyNeverSatisfied aftercorr:%d_*(failed)", a),
		"2": "None ",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("second array's records (-want +got):\n%s", diff)
	}
}

func mustUint(t *testing.T, s string) uint64 {
	t.Helper()
	var v uint64
	if _, err := fmt.Sscan(s, &v); err != nil {
		t.Fatalf("job id %q: %v", s, err)
	}
	return v
}

func mustInt(t *testing.T, s string) int {
	t.Helper()
	var v int
	if _, err := fmt.Sscan(s, &v); err != nil {
		t.Fatalf("task id %q: %v", s, err)
	}
	return v
}

// TestAftercorrSplitsSmallArrays: a pending aftercorr array of fewer than
// ten tasks becomes a record per task at once, the first tasks with new
// ids and the last with the array's, as the peer's --array=1-5 -d
// aftercorr shows five rows; tasks the target array lacks wait for the
// whole of it (the peer runs tasks 4 and 5 once all three of a 3-task
// array have ended). Ten tasks or more stay one record.
func TestAftercorrSplitsSmallArrays(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	a := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "1-3" }))
	d := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "1-5"; r.Dependency = fmt.Sprintf("aftercorr:%d", a) }))
	big := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "1-12"; r.Dependency = fmt.Sprintf("aftercorr:%d", a) }))
	rows := func(id uint32) string {
		tbl := h.tableRawAs(0, api.JobQuery{JobIDs: []string{fmt.Sprint(id)}, Fields: []string{"job_id", "array_task_id", "array_task_string", "state_reason"}})
		return fmt.Sprint(tbl.Rows)
	}
	want := fmt.Sprintf("[[%d 5  Dependency] [%d 1  Dependency] [%d 2  Dependency] [%d 3  Dependency] [%d 4  Dependency]]",
		d, d+1, d+2, d+3, d+4)
	if got := rows(d); got != want {
		t.Errorf("aftercorr array of 5\n got %s\nwant %s", got, want)
	}
	if got, want := rows(big), fmt.Sprintf("[[%d  1-12 Dependency]]", big); got != want {
		t.Errorf("aftercorr array of 12\n got %s\nwant %s", got, want)
	}
	// Task 1 of the target ends: task 1 may run, tasks 4 and 5 still wait.
	h.cycle()
	var first uint32
	for _, row := range h.tableRawAs(0, api.JobQuery{JobIDs: []string{fmt.Sprint(a)}, Fields: []string{"job_id", "array_task_id"}}).Rows {
		if row[1] == "1" {
			first = uint32(mustUint(t, row[0]))
		}
	}
	h.waitState(fmt.Sprint(first), job.Running)
	n.Launch(t, first, 5*time.Second)
	if err := n.End(first, job.ExitCode{}); err != nil {
		t.Fatal(err)
	}
	h.waitState(fmt.Sprint(first), job.Completed)
	for id, reason := range map[uint32]job.Reason{d + 1: job.ReasonNone, d + 4: job.ReasonDependency, d: job.ReasonDependency} {
		if j := h.job(fmt.Sprint(id)); j.StateReason != reason && !(reason == job.ReasonNone && j.JobState != job.Pending) {
			t.Errorf("job %d (task %v): %s %s, want %s", id, j.ArrayTaskID, j.JobState, j.StateReason, reason)
		}
	}
}
