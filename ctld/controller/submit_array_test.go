package controller

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestBadArrayKeepsJobIDLife: on the Slurm 22.05 peer a submission with a
// bad --array ("1-3:", "0-20000" over MaxArraySize) uses up no job id:
// the jobs around it got 17452 and 17453.
func TestBadArrayKeepsJobIDLife(t *testing.T) {
	h := newHarness(t)
	first := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	for _, spec := range []string{"1-3:", "0-20000"} {
		if _, err := h.submit(alice, simpleJob(func(r *job.Request) { r.Array = spec; r.Hold = true })); err == nil || err.Code != api.CodeInvalidArray {
			t.Fatalf("--array=%s: %v, want %s", spec, err, api.CodeInvalidArray)
		}
	}
	if next := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true })); next != first+1 {
		t.Errorf("job after two bad arrays got id %d, want %d", next, first+1)
	}
}
