package controller

import (
	"fmt"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestUpdateGRESBesideGPUs: Gres= with GPUs a node on a --gpus job is
// refused unless -N gave a node maximum that holds it, as slurmctld
// re-checks the counts (the peer refuses Gres=gpu:4 on a -G4 -n4 job,
// "Invalid generic resource (gres) specification"); on a job without
// --gpus it is taken.
func TestUpdateGRESBesideGPUs(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	gres := "gpu:1"
	cases := map[string]struct {
		mod  func(r *job.Request)
		want api.Code
	}{
		"--gpus without -N": {func(r *job.Request) { r.GPUs = gpus(1) }, api.CodeInvalidGRES},
		"no --gpus":         {func(r *job.Request) {}, ""},
	}
	for name, tc := range cases {
		id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true; tc.mod(r) }))
		if got := updateCode(t, h, alice, fmt.Sprint(id), api.JobUpdate{GRES: &gres}); got != tc.want {
			t.Errorf("%s: Gres=%s answered %q, want %q", name, gres, got, tc.want)
		}
	}
}
