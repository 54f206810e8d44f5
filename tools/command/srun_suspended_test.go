package command

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// refusingSteps refuses the first refuse step requests with code, as a
// controller does while the job is suspended (CodeDisabled) or its other
// steps hold what the step needs (CodeNodesBusy).
type refusingSteps struct {
	*fakeSteps
	refuse int
	code   api.Code
}

func (d *refusingSteps) CreateStep(ctx context.Context, req *api.StepCreateRequest) (*api.StepCreateResponse, error) {
	d.mu.Lock()
	refuse := d.refuse > 0
	if refuse {
		d.refuse--
		d.created = append(d.created, *req)
	}
	d.mu.Unlock()
	if refuse {
		return nil, api.NewError(d.code)
	}
	return d.fakeSteps.CreateStep(ctx, req)
}

// TestSrunStepInSuspendedJob: a step asked for in a suspended job waits
// until the job is resumed, with the peer's messages, or is given up at a
// signal.
func TestSrunStepInSuspendedJob(t *testing.T) {
	defer func(p time.Duration) { stepRetryPoll = p }(stepRetryPoll)
	stepRetryPoll = time.Millisecond
	one := api.StepLayout{NodeList: "n01", Tasks: 1, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0}}}}
	suspended := api.Allocation{JobID: 12, State: job.Suspended, Ready: true}
	running := api.Allocation{JobID: 12, State: job.Running, Ready: true}
	tests := map[string]struct {
		disabled  int
		waits     []api.Allocation
		signal    os.Signal
		wantCode  int
		wantOut   string
		wantErr   string
		wantTries int
	}{
		"resumed after two refusals: the step runs": {
			disabled: 2, waits: []api.Allocation{suspended, suspended, running},
			wantOut: "n01\n", wantTries: 3,
			wantErr: "srun: Job 12 step creation temporarily disabled, retrying (Requested operation is presently disabled)\n" +
				"srun: Job 12 step creation still disabled, retrying (Requested operation is presently disabled)\n" +
				"srun: Step created for job 12\n",
		},
		"SIGTERM while the job is suspended: the step is given up": {
			disabled: 1, waits: []api.Allocation{suspended}, signal: syscall.SIGTERM,
			wantCode: 1, wantTries: 1,
			wantErr: "srun: Cancelled pending job step with signal 15\n" +
				"srun: error: Unable to create step for job 12: Job/step already completing or completed\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeSteps{fakeController: &fakeController{}, t: t, layout: one, waits: tc.waits,
				script: []func(n *fakeNode){func(n *fakeNode) {
					n.out(0, "n01\n")
					n.exit(api.StepIOExit{Tasks: []int{0}})
					n.done()
				}}}
			d := &refusingSteps{fakeSteps: f, refuse: tc.disabled, code: api.CodeDisabled}
			te := newTestEnv(f.fakeController, 1_800_000_000)
			te.Environ = append(te.Environ, insideJobEnv...)
			te.Dial = func(context.Context) (Controller, error) { return d, nil }
			h := stepHooks{
				notify: func(ch chan<- os.Signal) func() {
					if tc.signal != nil {
						ch <- tc.signal
					}
					return func() {}
				},
				ioHost:      func() string { return "127.0.0.1" },
				stdinIsNull: func() bool { return true },
			}
			code := runSrun(context.Background(), te.Env, []string{"hostname"}, h)
			f.wg.Wait()
			if code != tc.wantCode {
				t.Errorf("exit status %d, want %d", code, tc.wantCode)
			}
			if diff := cmp.Diff(tc.wantOut, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantErr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if len(f.created) != tc.wantTries {
				t.Errorf("%d step requests, want %d", len(f.created), tc.wantTries)
			}
		})
	}
}
