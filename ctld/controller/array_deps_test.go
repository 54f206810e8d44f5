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

// TestWholeArrayDependencyLife: afterok and afternotok on every task of an
// array wait until all tasks have ended, as on the Slurm 22.05 peer: with
// task 1 failed and task 2 still running both show "(unfulfilled)"; once
// task 2 completed, "afterok:A_*(failed)" never holds and afternotok is
// met because one task failed.
func TestWholeArrayDependencyLife(t *testing.T) {
	h := newHarness(t)
	nodes := map[string]*clustertest.FakeNode{"n01": h.node("n01"), "n02": h.node("n02")}
	a := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "1-2" }))
	dep := func(typ string) uint32 {
		return h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf("%s:%d", typ, a) }))
	}
	ok, notOK := dep("afterok"), dep("afternotok")
	h.cycle()
	tasks := map[int]uint32{}
	for _, row := range h.tableRawAs(0, api.JobQuery{JobIDs: []string{fmt.Sprint(a)}, Fields: []string{"job_id", "array_task_id"}}).Rows {
		tasks[mustInt(t, row[1])] = uint32(mustUint(t, row[0]))
	}
	end := func(task int, exit job.ExitCode, st job.State) {
		id := tasks[task]
		j := h.waitState(fmt.Sprint(id), job.Running)
		n := nodes[j.BatchHost]
		n.Launch(t, id, 5*time.Second)
		if err := n.End(id, exit); err != nil {
			t.Fatal(err)
		}
		h.waitState(fmt.Sprint(id), st)
	}
	show := func() map[string]string {
		got := map[string]string{}
		for name, id := range map[string]uint32{"afterok": ok, "afternotok": notOK} {
			j := h.job(fmt.Sprint(id))
			got[name] = fmt.Sprintf("%s %s", j.StateReason, j.Dependency)
		}
		return got
	}
	end(1, job.ExitCode{Status: 1}, job.Failed)
	want := map[string]string{
		"afterok":    fmt.Sprintf("Dependency afterok:%d_*(unfulfilled)", a),
		"afternotok": fmt.Sprintf("Dependency afternotok:%d_*(unfulfilled)", a),
	}
	if diff := cmp.Diff(want, show()); diff != "" {
		t.Errorf("one task failed, one running (-want +got):\n%s", diff)
	}
	end(2, job.ExitCode{}, job.Completed)
	want = map[string]string{
		"afterok":    fmt.Sprintf("DependencyNeverSatisfied afterok:%d_*(failed)", a),
		"afternotok": "None ",
	}
	if diff := cmp.Diff(want, show()); diff != "" {
		t.Errorf("all tasks ended (-want +got):\n%s", diff)
	}
}
