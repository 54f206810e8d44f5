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

// TestGPUsSplit: GPUs a job must be a multiple of GPUs a node, on a node
// count within -N's range (the peer's answers to Gres= on held jobs).
func TestGPUsSplit(t *testing.T) {
	for name, tc := range map[string]struct {
		perJob, perNode, min, max int
		want                      bool
	}{
		"-N2 -G4 gpu:2":   {4, 2, 2, 2, true},
		"-N2 -G4 gpu:1":   {4, 1, 2, 2, false},
		"-N2 -G4 gpu:3":   {4, 3, 2, 2, false},
		"-N1-3 -G4 gpu:4": {4, 4, 1, 3, true},
		"-N1-3 -G4 gpu:5": {4, 5, 1, 3, false},
		"-N2 -G3 gpu:1":   {3, 1, 2, 2, false},
		"-N2-4 -G4 gpu:2": {4, 2, 2, 4, true},
		"-n4 -G4 gpu:4":   {4, 4, 0, 0, false},
	} {
		q := job.Request{GPUs: gpus(int64(tc.perJob)), GRES: gpus(int64(tc.perNode)), MinNodes: tc.min, MaxNodes: tc.max}
		if got := gpusSplit(&q); got != tc.want {
			t.Errorf("%s: %v, want %v", name, got, tc.want)
		}
	}
}

// TestUpdateGRESReplacesGPUsPerNode: Gres= is the whole TresPerNode, so
// it replaces --gpus-per-node (the peer shows TresPerNode=gres:gpu:4
// alone after Gres=gpu:4 on a --gpus-per-node=2 job).
func TestUpdateGRESReplacesGPUsPerNode(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	id := fmt.Sprint(h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold, r.GPUsPerNode = true, gpus(2) })))
	gres := "gpu:1"
	if got := updateCode(t, h, alice, id, api.JobUpdate{GRES: &gres}); got != "" {
		t.Fatalf("Gres=%s: %q", gres, got)
	}
	if j := h.job(id); j.TRESPerNode != "gres:gpu:1" {
		t.Errorf("TresPerNode=%s, want gres:gpu:1", j.TRESPerNode)
	}
}
