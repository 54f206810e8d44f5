package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// acctElapsed lists the Elapsed seconds of job id and of each of its steps.
func (h *harness) acctElapsed(id uint32) []string {
	h.t.Helper()
	var out api.AcctResponse
	if err := h.call(0, api.PathAccounting, api.AcctQuery{JobIDs: []string{fmt.Sprint(id)}}, &out); err != nil {
		h.t.Fatal(err)
	}
	var lines []string
	for _, j := range out.Jobs {
		lines = append(lines, fmt.Sprintf("job %d suspended %d", j.Elapsed, j.Suspended))
		for _, s := range j.Steps {
			lines = append(lines, fmt.Sprintf("%s %d", s.StepID, s.Elapsed))
		}
	}
	return lines
}

// TestSuspendSteps: as in Slurm 22.05, no step starts in a suspended job
// (srun is told "Requested operation is presently disabled" and nothing is
// listed for it), one starts once the job is resumed, and sacct's Elapsed
// of the job and of its steps leaves out the time suspended.
func TestSuspendSteps(t *testing.T) {
	h := newHarness(t)
	n := h.stepNode("n01")
	id := h.mustSubmit(alice, simpleJob())
	sid := fmt.Sprint(id)
	h.cycle()
	h.waitState(sid, job.Running)
	create := func() (uint32, *api.Error) {
		t.Helper()
		var resp api.StepCreateResponse
		err := h.call(alice, api.PathStepCreate, stepReq(id), &resp)
		return resp.StepID, err
	}

	h.clock.Advance(10 * time.Second)
	if _, err := create(); err != nil {
		t.Fatalf("step 0: %v", err)
	}
	h.clock.Advance(5 * time.Second)
	if c := suspendCode(t, h, 0, false, sid); c != "" {
		t.Fatalf("suspend: %s", c)
	}
	h.clock.Advance(30 * time.Second)
	if _, err := create(); err == nil || err.Code != api.CodeDisabled || err.Message != "Requested operation is presently disabled" {
		t.Fatalf("step in a suspended job: %v, want %s", err, api.CodeDisabled)
	}
	if got := len(n.stepLaunches()); got != 1 {
		t.Errorf("%d step launches, want only step 0's", got)
	}
	if diff := cmp.Diff([]string{"0 hostname RUNNING n01 1", "batch batch RUNNING n01 1"}, h.steps()); diff != "" {
		t.Errorf("steps while suspended (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"job 15 suspended 30", "batch 15", "0 5"}, h.acctElapsed(id)); diff != "" {
		t.Errorf("sacct while suspended (-want +got):\n%s", diff)
	}

	if c := suspendCode(t, h, 0, true, sid); c != "" {
		t.Fatalf("resume: %s", c)
	}
	h.clock.Advance(5 * time.Second)
	if step, err := create(); err != nil || step != 1 {
		t.Fatalf("step after the resume: %d, %v; want step 1", step, err)
	}
	h.clock.Advance(2 * time.Second)
	if err := h.call(alice, api.PathStepComplete, api.StepCompleteRequest{JobID: id, StepID: 0, State: job.Completed}, nil); err != nil {
		t.Fatalf("complete step 0: %v", err)
	}
	h.clock.Advance(3 * time.Second)
	if diff := cmp.Diff([]string{"job 25 suspended 30", "batch 25", "0 12", "1 5"}, h.acctElapsed(id)); diff != "" {
		t.Errorf("sacct after the resume (-want +got):\n%s", diff)
	}
}
