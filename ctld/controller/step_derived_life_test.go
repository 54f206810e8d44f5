package controller

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestDerivedExitCodeLife: the job keeps the highest exit of its steps, as
// the Slurm 22.05 peer shows for a script whose `srun bash -c 'exit 7'`
// failed before it ran `exit 0` (ExitCode=0:0 DerivedExitCode=7:0); an
// exit status outranks a death by signal, as wait statuses compare.
func TestDerivedExitCodeLife(t *testing.T) {
	h := newHarness(t)
	h.stepNode("n01")
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.NTasks = 2 }))
	h.cycle()
	h.waitState(fmt.Sprint(id), job.Running)
	var got []string
	for step, exit := range []job.ExitCode{{Signal: 9}, {Status: 7}, {Status: 1}, {}} {
		if err := h.call(alice, api.PathStepCreate, stepReq(id, func(r *api.StepCreateRequest) { r.NTasks = 1 }), nil); err != nil {
			t.Fatalf("create step %d: %v", step, err)
		}
		st := job.Failed
		if exit == (job.ExitCode{}) {
			st = job.Completed
		}
		done := api.StepCompleteRequest{JobID: id, StepID: uint32(step), State: st, ExitCode: exit}
		if err := h.call(alice, api.PathStepComplete, done, nil); err != nil {
			t.Fatal(err)
		}
		got = append(got, h.job(fmt.Sprint(id)).DerivedExitCode.String())
	}
	if diff := cmp.Diff([]string{"0:9", "7:0", "7:0", "7:0"}, got); diff != "" {
		t.Errorf("DerivedExitCode after each step (-want +got):\n%s", diff)
	}
}
