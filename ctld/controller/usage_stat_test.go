package controller

import (
	"fmt"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestStepStatExternIsNeverRunning: Loam runs no extern step, so sstat
// -j JOB.extern of a running job finds no step (sstat's "not found
// running"), not a bad request (its "couldn't get steps").
func TestStepStatExternIsNeverRunning(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	h.waitState(fmt.Sprint(id), job.Running)
	var st api.StepStatResponse
	if err := h.call(alice, api.PathStepStat, api.StepStatRequest{JobID: id, Step: "extern"}, &st); err != nil {
		t.Fatalf("extern step: %v, want no error", err)
	}
	if len(st.Steps) != 0 || st.NoSteps {
		t.Errorf("extern step: %+v, want no steps and a running job", st)
	}
}
