package controller

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestAcctFoldsCase: sacct sends its -A, -r and --name items lowercased
// (Slurm's slurm_addto_char_list) and Slurm's accounting database
// compares them without case, so a lowercase item selects a finished job
// and a live one whatever their case.
func TestAcctFoldsCase(t *testing.T) {
	h := newHarness(t)
	done := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Name = "MyJob" }))
	rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(done)}}})
	if e := firstErr(rs); e != "" {
		t.Fatalf("cancel: %s", e)
	}
	h.waitState(fmt.Sprint(done), job.Cancelled)
	live := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Name = "MYJOB" }))
	h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Name = "other" }))
	for name, q := range map[string]api.AcctQuery{
		"names":      {Names: []string{"myjob"}},
		"partitions": {Names: []string{"myjob"}, Partitions: []string{"NORMAL"}},
	} {
		var out api.AcctResponse
		if err := h.call(0, api.PathAccounting, q, &out); err != nil {
			t.Fatal(err)
		}
		var got []uint32
		for _, j := range out.Jobs {
			got = append(got, j.JobID)
		}
		if diff := cmp.Diff([]uint32{done, live}, got); diff != "" {
			t.Errorf("%s: jobs (-want +got):\n%s", name, diff)
		}
	}
}
