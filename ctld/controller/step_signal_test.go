package controller

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// scancel JOB.STEP: the order goes to the nodes of that step only, with
// the step id, SIGKILL when cancelling; a step that is not running is an
// invalid job id, as Slurm answers it, and nothing is sent.
func TestStepSignalGoesToTheStepsNodes(t *testing.T) {
	u32 := func(v uint32) *uint32 { return &v }
	cases := map[string]struct {
		step     uint32
		signal   int
		want     map[string][]api.SignalRequest // by node
		wantCode api.Code
		ended    bool // the step completed before the order
	}{
		"cancel one step: its node only, SIGKILL": {step: 0, want: map[string][]api.SignalRequest{
			"n01": {{Signal: 9, Step: u32(0)}}}},
		"SIGUSR1 to a step on two nodes: both": {step: 1, signal: 10, want: map[string][]api.SignalRequest{
			"n01": {{Signal: 10, Step: u32(1)}}, "n02": {{Signal: 10, Step: u32(1)}}}},
		"a step that never ran":       {step: 7, wantCode: api.CodeInvalidJobID},
		"a step that ended":           {step: 0, ended: true, wantCode: api.CodeInvalidJobID},
		"a signal no process can get": {step: 1, signal: 99},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			nodes := map[string]*stepNode{"n01": h.stepNode("n01"), "n02": h.stepNode("n02")}
			id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.NTasks = 4 }))
			h.cycle()
			h.waitState(fmt.Sprint(id), job.Running)
			for range 2 {
				var resp api.StepCreateResponse
				if err := h.call(alice, api.PathStepCreate, stepReq(id, func(r *api.StepCreateRequest) { r.NTasks = 1 }), &resp); err != nil {
					t.Fatalf("create step: %v", err)
				}
			}
			// The harness runs a job on one node; step 1 is made to span
			// both, so that the order is seen to follow the step's
			// layout rather than the job's allocation.
			h.c.mu.Lock()
			s1 := h.c.findStep(id, 1)
			s1.Layout.Nodes = append(s1.Layout.Nodes, api.StepNode{Node: "n02", TaskIDs: []int{1}, CPUs: 1})
			h.c.mu.Unlock()
			if tc.ended {
				if err := h.call(alice, api.PathStepComplete, api.StepCompleteRequest{JobID: id, StepID: tc.step, State: job.Completed}, nil); err != nil {
					t.Fatalf("complete step: %v", err)
				}
			}

			rs := results(t, h, alice, api.PathCancel, api.CancelRequest{
				Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(id)}}, Signal: tc.signal, Step: &tc.step})
			var code api.Code
			if rs[0].Error != nil {
				code = rs[0].Error.Code
			}
			if code != tc.wantCode {
				t.Fatalf("result %+v, want code %q", rs, tc.wantCode)
			}
			h.c.inflight.Wait()
			got := map[string][]api.SignalRequest{}
			for name, n := range nodes {
				for _, s := range n.Signals() {
					s.JobID -= id // the job id is checked here, the rest below
					if s.JobID != 0 {
						t.Errorf("signal to %s for job %d", name, s.JobID+id)
					}
					got[name] = append(got[name], s)
				}
				if terms := n.Terminations(); len(terms) != 0 {
					t.Errorf("terminations on %s: %+v", name, terms)
				}
			}
			if tc.want == nil {
				tc.want = map[string][]api.SignalRequest{}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("signals by node (-want +got):\n%s", diff)
			}
			if j := h.job(fmt.Sprint(id)); j.JobState != job.Running {
				t.Errorf("job is %s, want RUNNING", j.JobState)
			}
		})
	}
}
