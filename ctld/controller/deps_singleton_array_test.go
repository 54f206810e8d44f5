package controller

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSingletonWaitsForEarlierPendingLife: as on the Slurm 22.05 peer, a
// singleton job waits for any earlier pending job of its user and name,
// held or not, with a singleton dependency or not ("17377 PENDING
// Dependency singleton(unfulfilled)" behind the held "17376"), while the
// first of them has its singleton fulfilled ("17374 ... JobHeldUser
// (null)"); the tasks of a singleton array do not wait for each other,
// and a later job of the name waits for the array.
func TestSingletonWaitsForEarlierPendingLife(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	h.node("n02")
	named := func(name string, mods ...func(*job.Request)) job.Request {
		return simpleJob(append([]func(*job.Request){func(r *job.Request) { r.Name = name }}, mods...)...)
	}
	singleton := func(r *job.Request) { r.Dependency = "singleton" }
	held := func(r *job.Request) { r.Hold = true }
	plainHeld := h.mustSubmit(alice, named("x", held))
	behindPlain := h.mustSubmit(alice, named("x", singleton))
	firstSingleton := h.mustSubmit(alice, named("y", singleton, held))
	behindSingleton := h.mustSubmit(alice, named("y", singleton))
	arr := h.mustSubmit(alice, named("z", singleton, func(r *job.Request) { r.Array = "0-1" }))
	behindArray := h.mustSubmit(alice, named("z", singleton))
	h.cycle()
	state := func(id uint32) string {
		j := h.job(fmt.Sprint(id))
		return fmt.Sprintf("%s %s %s", j.JobState, j.StateReason, j.Dependency)
	}
	got := map[string]string{}
	for name, id := range map[string]uint32{
		"behind a held plain job":     behindPlain,
		"first singleton, held":       firstSingleton,
		"behind a held singleton job": behindSingleton,
		"behind a running array":      behindArray,
	} {
		got[name] = state(id)
	}
	for _, row := range h.tableRawAs(0, api.JobQuery{JobIDs: []string{fmt.Sprint(arr)}, Fields: []string{"array_task_id", "job_state"}}).Rows {
		got["array task "+row[0]] = row[1]
	}
	want := map[string]string{
		"behind a held plain job":     "PENDING Dependency singleton(unfulfilled)",
		"first singleton, held":       "PENDING JobHeldUser singleton(unfulfilled)",
		"behind a held singleton job": "PENDING Dependency singleton(unfulfilled)",
		"behind a running array":      "PENDING Dependency singleton(unfulfilled)",
		"array task 0":                "RUNNING",
		"array task 1":                "RUNNING",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("singleton jobs (-want +got):\n%s", diff)
	}
	if rs := results(t, h, 0, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(plainHeld)}}}); firstErr(rs) != "" {
		t.Fatalf("cancel: %+v", rs)
	}
	if got := h.job(fmt.Sprint(behindPlain)).Dependency; got != "" {
		t.Errorf("after the held job is cancelled, Dependency=%q, want it fulfilled", got)
	}
}

// TestDependencyOnMissingTaskNamedLife: Loam refuses a dependency on a
// task its array does not have (Slurm lifts it silently) and names the
// task, not the array, which exists.
func TestDependencyOnMissingTaskNamedLife(t *testing.T) {
	h := newHarness(t)
	arr := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "0-3"; r.Hold = true }))
	_, err := h.submit(alice, simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf("afterok:%d_7", arr) }))
	if err == nil {
		t.Fatal("a dependency on a missing task was accepted")
	}
	if want := fmt.Sprintf("job %d_7 does not exist", arr); err.Detail != want {
		t.Errorf("error detail %q, want %q", err.Detail, want)
	}
	if _, err := h.submit(alice, simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf("afterok:%d_3", arr) })); err != nil {
		t.Errorf("a dependency on an existing task: %v", err)
	}
}
