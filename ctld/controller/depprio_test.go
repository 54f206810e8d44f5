package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestDependentJobHasPriority: a job waiting on a dependency has a
// priority, as the peer computes it (squeue %Q, scontrol Priority=); only
// an explicitly held job shows 0.
func TestDependentJobHasPriority(t *testing.T) {
	h := newHarness(t)
	first := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	dep := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf("afterany:%d", first) }))
	h.cycle()
	if j := h.job(fmt.Sprint(first)); j.Priority != 0 {
		t.Errorf("held job: priority %d, want 0", j.Priority)
	}
	j := h.job(fmt.Sprint(dep))
	if j.Priority <= 0 {
		t.Errorf("job waiting on a dependency: priority %d, want it computed (> 0)", j.Priority)
	}
	if j.StateReason != "Dependency" {
		t.Errorf("job waiting on a dependency: reason %q, want Dependency", j.StateReason)
	}
}

// TestSprioRows: sprio lists a job once per candidate partition, the
// highest PriorityTier first, and leaves out jobs not eligible yet (a
// begin time to come, a dependency not met), as the peer does.
func TestSprioRows(t *testing.T) {
	h := newHarness(t)
	multi := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Partitions = []string{"batch", "normal"} }))
	later := h.clock.Now().Add(time.Hour)
	h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Begin = &later }))
	held := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf("afterany:%d", held) }))
	cases := map[string]struct {
		q    api.PrioQuery
		want []string
	}{
		"every partition, the highest tier first": {want: []string{"normal", "batch"}},
		"-p keeps the partitions asked for":       {q: api.PrioQuery{Partitions: []string{"batch"}}, want: []string{"batch"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var resp api.PrioResponse
			if err := h.call(alice, api.PathPriorities, tc.q, &resp); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, j := range resp.Jobs {
				if j.JobID != multi {
					t.Errorf("job %d listed; want only %d (the others are not eligible)", j.JobID, multi)
				}
				got = append(got, j.Partition)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("partitions (-want +got):\n%s", diff)
			}
		})
	}
}
