package command

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestSrunStepNodesBusy: a step whose nodes the job's other steps hold is
// asked for again until it fits, with the peer's two lines (the "still
// disabled" line is verbose only in Slurm's srun), given up with
// --immediate or at a signal; --overlap reaches the controller.
func TestSrunStepNodesBusy(t *testing.T) {
	defer func(p time.Duration) { stepBusyPoll = p }(stepBusyPoll)
	stepBusyPoll = time.Millisecond
	one := api.StepLayout{NodeList: "n01", Tasks: 1, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0}}}}
	tests := map[string]struct {
		args        []string
		busy        int
		signal      os.Signal
		wantCode    int
		wantOut     string
		wantErr     string
		wantTries   int
		wantOverlap bool
	}{
		"busy three times: one notice, then the step runs": {
			args: []string{"hostname"}, busy: 3, wantOut: "n01\n", wantTries: 4,
			wantErr: "srun: Job 12 step creation temporarily disabled, retrying (Requested nodes are busy)\n" +
				"srun: Step created for job 12\n",
		},
		"--overlap is sent to the controller": {
			args: []string{"--overlap", "hostname"}, wantOut: "n01\n", wantTries: 1, wantOverlap: true,
		},
		"--immediate gives up at once": {
			args: []string{"--immediate", "hostname"}, busy: 1, wantCode: 1, wantTries: 1,
			wantErr: "srun: error: Unable to create step for job 12: Requested nodes are busy\n",
		},
		"SIGINT while it waits: the step is given up": {
			args: []string{"hostname"}, busy: 1, signal: syscall.SIGINT, wantCode: 1, wantTries: 1,
			wantErr: "srun: Job 12 step creation temporarily disabled, retrying (Requested nodes are busy)\n" +
				"srun: Cancelled pending job step with signal 2\n" +
				"srun: error: Unable to create step for job 12: Job/step already completing or completed\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeSteps{fakeController: &fakeController{}, t: t, layout: one,
				script: []func(n *fakeNode){func(n *fakeNode) {
					n.out(0, "n01\n")
					n.exit(api.StepIOExit{Tasks: []int{0}})
					n.done()
				}}}
			d := &refusingSteps{fakeSteps: f, refuse: tc.busy, code: api.CodeNodesBusy}
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
			code := runSrun(context.Background(), te.Env, tc.args, h)
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
				t.Fatalf("%d step requests, want %d", len(f.created), tc.wantTries)
			}
			if got := f.created[len(f.created)-1].Overlap; got != tc.wantOverlap {
				t.Errorf("Overlap %v, want %v", got, tc.wantOverlap)
			}
		})
	}
}

// TestSrunStepNodeChecks: srun's own checks of -N, -x and -r against the
// allocation, with the peer's lines (job of cpu[001-002]), before it asks
// the controller for anything.
func TestSrunStepNodeChecks(t *testing.T) {
	env := append([]string{"SLURM_JOB_NODELIST=cpu[001-002]"}, insideJobEnv...)
	tests := map[string]struct {
		args    []string
		wantErr string
	}{
		"-x leaves fewer nodes than SLURM_NNODES": {args: []string{"-x", "cpu001", "hostname"},
			wantErr: "srun: error: Only allocated 1 nodes asked for 2\nsrun: error: Are required nodes explicitly excluded?\n"},
		"-N3 -n4 in a two-node job": {args: []string{"-N3", "-n4", "hostname"},
			wantErr: "srun: error: Only allocated 2 nodes asked for 3\n"},
		"-r1 with SLURM_NNODES": {args: []string{"-r1", "hostname"},
			wantErr: "srun: error: --relative and SLURM_JOB_NUM_NODES option incompatible with count of allocated nodes (1+2>2)\n"},
		"-N2 -r1": {args: []string{"-N2", "-r1", "hostname"},
			wantErr: "srun: error: --relative and --nodes option incompatible with count of allocated nodes (1+2>2)\n"},
		// _validate_relative comes first (the peer's -r0 -N2 in a one-node
		// job names -r, not the node count).
		"-N3 -r0, both wrong": {args: []string{"-N3", "-r0", "hostname"},
			wantErr: "srun: error: --relative and --nodes option incompatible with count of allocated nodes (0+3>2)\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeSteps{fakeController: &fakeController{}, t: t}
			te := newTestEnv(f.fakeController, 1_800_000_000)
			te.Environ = append(te.Environ, env...)
			te.Dial = func(context.Context) (Controller, error) { return f, nil }
			h := stepHooks{notify: func(chan<- os.Signal) func() { return func() {} },
				ioHost: func() string { return "127.0.0.1" }, stdinIsNull: func() bool { return true }}
			if code := runSrun(context.Background(), te.Env, tc.args, h); code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			if diff := cmp.Diff(tc.wantErr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if len(f.created) != 0 {
				t.Errorf("%d step requests, want none", len(f.created))
			}
		})
	}
}
