package command

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

var (
	configuringAlloc  = api.Allocation{JobID: 7, State: job.Configuring, NodeList: "n01"}
	prologFailedAlloc = api.Allocation{JobID: 7, State: job.Cancelled, Ended: true, NodeList: "n01",
		Cause: api.CausePrologFailed}
	grantedAlloc = api.Allocation{JobID: 7, State: job.Running, Ready: true, Name: "interactive", Partition: "normal",
		ClusterName: "c", NodeList: "n01", Nodes: []api.NodeAllocation{{Node: "n01", CPUs: 1}}, TasksPerNode: []int{1}}
)

// TestSallocConfiguring: while PrologSlurmctld runs salloc says it was
// granted and waits for the configuration; when the prolog fails it says
// so and that the allocation was revoked. Expected text: the peer's
// salloc (Slurm 22.05.8, PrologSlurmctld sleeping 3 s, exiting 1 for the
// failing jobs).
func TestSallocConfiguring(t *testing.T) {
	tests := map[string]struct {
		waits    []api.Allocation
		wantCode int
		wantRan  bool
		want     string
	}{
		"the prolog succeeds": {waits: []api.Allocation{configuringAlloc, grantedAlloc}, wantRan: true,
			want: "salloc: Granted job allocation 7\nsalloc: Waiting for resource configuration\n" +
				"salloc: Nodes n01 are ready for job\nsalloc: Relinquishing job allocation 7\n"},
		"the prolog fails": {waits: []api.Allocation{configuringAlloc, prologFailedAlloc}, wantCode: 1,
			want: "salloc: Granted job allocation 7\nsalloc: Waiting for resource configuration\n" +
				"salloc: PrologSlurmctld failed, job killed\nsalloc: Job allocation 7 has been revoked.\n" +
				"salloc: error: Job allocation 7 has been revoked\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeSteps{fakeController: &fakeController{}, t: t, waits: tc.waits}
			te := newTestEnv(f.fakeController, 1_800_000_000)
			te.Dial = func(context.Context) (Controller, error) { return f, nil }
			ran := false
			h := stepHooks{notify: func(chan<- os.Signal) func() { return func() {} },
				runLocal: func(_, _ []string, _ string, _ <-chan os.Signal) job.ExitCode {
					ran = true
					return job.ExitCode{}
				}}
			code := runSalloc(context.Background(), te.Env, []string{"true"}, h)
			if code != tc.wantCode {
				t.Errorf("exit status %d, want %d", code, tc.wantCode)
			}
			if ran != tc.wantRan {
				t.Errorf("command ran %v, want %v", ran, tc.wantRan)
			}
			if diff := cmp.Diff(tc.want, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

// srunVerboseOptions is what srun -v hostname prints of its options.
const srunVerboseOptions = "srun: defined options\nsrun: -------------------- --------------------\n" +
	"srun: verbose             : 1\nsrun: -------------------- --------------------\nsrun: end of defined options\n"

// TestSrunConfiguring: srun says nothing while PrologSlurmctld runs and,
// when it fails, what the peer's srun says, exiting 1.
func TestSrunConfiguring(t *testing.T) {
	one := api.StepLayout{NodeList: "n01", Tasks: 1, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0}}}}
	tests := map[string]srunCase{
		"the prolog succeeds": {
			args: []string{"hostname"}, layout: one, waits: []api.Allocation{configuringAlloc, grantedAlloc},
			script: []func(n *fakeNode){func(n *fakeNode) {
				n.out(0, "n01\n")
				n.exit(api.StepIOExit{Tasks: []int{0}})
				n.done()
			}},
			wantStdout: "n01\n",
		},
		"-v, the prolog fails": {
			args: []string{"-v", "hostname"}, layout: one, waits: []api.Allocation{configuringAlloc, prologFailedAlloc},
			wantCode: 1,
			wantStderr: srunVerboseOptions + "srun: Waiting for nodes to boot (delay looping 450 times @ 0.100000 secs x index)\n" +
				"srun: PrologSlurmctld failed, job killed\nsrun: error: Nodes n01 are still not ready\n" +
				"srun: error: Something is wrong with the boot of the nodes.\n",
		},
		"the prolog fails": {
			args: []string{"hostname"}, layout: one, waits: []api.Allocation{configuringAlloc, prologFailedAlloc},
			wantCode: 1,
			wantStderr: "srun: PrologSlurmctld failed, job killed\nsrun: error: Nodes n01 are still not ready\n" +
				"srun: error: Something is wrong with the boot of the nodes.\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f, _ := runSrunCase(t, tc)
			if got := len(f.created); got != len(tc.script) {
				t.Errorf("%d steps created, want %d", got, len(tc.script))
			}
		})
	}
}

// TestSrunKillOnBadExitDefault: slurm.conf's KillOnBadExit=1 (in the
// step's answer) makes srun end the step at a bad exit as -K does; -K0
// turns it off. Expected text: the peer's srun with KillOnBadExit=1.
func TestSrunKillOnBadExitDefault(t *testing.T) {
	killed := func(n *fakeNode) {
		n.await(api.IOTerminate)
		n.err(0, "slurmstepd-n01: error: *** STEP 12.3 ON n01 CANCELLED AT 2027-01-15T08:00:00 ***\n")
		n.exit(api.StepIOExit{Tasks: []int{0, 1}, ExitCode: job.ExitCode{Signal: 15}})
		n.done()
	}
	bad := func(n *fakeNode) {
		n.exit(api.StepIOExit{Tasks: []int{2}, ExitCode: job.ExitCode{Status: 3}})
		n.done()
	}
	tests := map[string]srunCase{
		"KillOnBadExit=1 ends the step": {
			env: insideJobEnv, args: []string{"x"}, layout: twoNodes, confKill: true,
			script:   []func(n *fakeNode){killed, bad},
			wantCode: 143,
			wantStderr: "srun: error: n02: task 2: Exited with exit code 3\n" +
				"srun: launch/slurm: _step_signal: Terminating StepId=12.3\n" +
				"slurmstepd-n01: error: *** STEP 12.3 ON n01 CANCELLED AT 2027-01-15T08:00:00 ***\n" +
				"srun: error: n01: tasks 0-1: Terminated\nsrun: Force Terminated StepId=12.3\n",
			wantState: job.Failed, wantExit: job.ExitCode{Signal: 15},
		},
		"-K0 overrides it": {
			env: insideJobEnv, args: []string{"-K0", "x"}, layout: twoNodes, confKill: true,
			script: []func(n *fakeNode){func(n *fakeNode) {
				n.exit(api.StepIOExit{Tasks: []int{0, 1}})
				n.done()
			}, bad},
			wantCode:   3,
			wantStderr: "srun: error: n02: task 2: Exited with exit code 3\n",
			wantState:  job.Failed, wantExit: job.ExitCode{Status: 3},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f, _ := runSrunCase(t, tc)
			if len(f.completed) != 1 || f.completed[0].State != tc.wantState || f.completed[0].ExitCode != tc.wantExit {
				t.Errorf("completed %+v, want %s %v", f.completed, tc.wantState, tc.wantExit)
			}
		})
	}
}

func TestKillOnBadExit(t *testing.T) {
	zero, one := 0, 1
	for name, tc := range map[string]struct {
		opt  *int
		conf bool
		want bool
	}{
		"neither":            {nil, false, false},
		"slurm.conf alone":   {nil, true, true},
		"-K without the key": {&one, false, true},
		"-K0 over the key":   {&zero, true, false},
	} {
		if got := killOnBadExit(tc.opt, tc.conf); got != tc.want {
			t.Errorf("%s: %v, want %v", name, got, tc.want)
		}
	}
}
