package command

import (
	"context"
	"os"
	"slices"
	"sync"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// oneNode is a step of two tasks on n01.
var oneNode = api.StepLayout{NodeList: "n01", Tasks: 2, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0, 1}}}}

// killedNode plays a node whose tasks run until srun aborts the step: it
// checks srun asked for SIGKILL at once, says the step was cancelled and
// reports its tasks killed.
func killedNode(t *testing.T, tasks []int) func(n *fakeNode) {
	return func(n *fakeNode) {
		n.out(0, "started\n")
		if f := n.await(api.IOTerminate); f.Task != uint32(syscall.SIGKILL) {
			t.Errorf("terminate with signal %d, want SIGKILL at once", f.Task)
		}
		n.err(0, "slurmstepd-n01: error: *** STEP 12.3 ON n01 CANCELLED AT 2027-01-15T08:00:00 ***\n")
		n.exit(api.StepIOExit{Tasks: tasks, ExitCode: job.ExitCode{Signal: 9}})
		n.done()
	}
}

const cancelledLine = "slurmstepd-n01: error: *** STEP 12.3 ON n01 CANCELLED AT 2027-01-15T08:00:00 ***\n"

// TestSrunAborts: SIGTERM, SIGHUP and SIGQUIT make srun kill its step's
// tasks at once and report them killed, in the peer's words; SIGCONT is
// only noted.
func TestSrunAborts(t *testing.T) {
	aborted := "srun: forcing job termination\n" +
		"srun: Job step aborted: Waiting up to 7 seconds for job step to finish.\n" + cancelledLine +
		"srun: error: n01: tasks 0-1: Killed\n"
	tests := map[string]struct {
		signals    []os.Signal
		wantStderr string
	}{
		"SIGTERM":           {signals: []os.Signal{syscall.SIGTERM}, wantStderr: aborted},
		"SIGHUP":            {signals: []os.Signal{syscall.SIGHUP}, wantStderr: aborted},
		"SIGQUIT says Quit": {signals: []os.Signal{syscall.SIGQUIT}, wantStderr: "srun: Quit\n" + aborted},
		"SIGCONT, then SIGTERM": {signals: []os.Signal{syscall.SIGCONT, syscall.SIGTERM},
			wantStderr: "srun: got SIGCONT\n" + aborted},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f, _ := runSrunCase(t, srunCase{
				env: insideJobEnv, args: []string{"-N1", "-n2", "sleep", "30"}, layout: oneNode, signals: tc.signals,
				script:   []func(n *fakeNode){killedNode(t, []int{0, 1})},
				wantCode: 137, wantStdout: "started\n", wantStderr: tc.wantStderr,
			})
			want := []api.StepCompleteRequest{{JobID: 12, StepID: 3, State: job.Cancelled, ExitCode: job.ExitCode{Signal: 9}}}
			if diff := cmp.Diff(want, f.completed); diff != "" {
				t.Errorf("step end reported (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSrunWait: with -W srun ends the step that long after its first
// task ended: the status, then the other tasks killed (the peer's srun
// -n3 -W1 where task 1 exits at once).
func TestSrunWait(t *testing.T) {
	layout := api.StepLayout{NodeList: "n[01-02]", Tasks: 3,
		Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0, 2}}, {Node: "n02", TaskIDs: []int{1}}}}
	runSrunCase(t, srunCase{
		env: insideJobEnv, args: []string{"-W1", "x"}, layout: layout,
		script: []func(n *fakeNode){
			killedNode(t, []int{0, 2}),
			func(n *fakeNode) {
				n.exit(api.StepIOExit{Tasks: []int{1}})
				n.done()
			},
		},
		wantCode: 137, wantStdout: "started\n",
		wantStderr: "srun: First task exited 1s ago\n" +
			"srun: StepId=12.3 tasks 0,2: running\n" +
			"srun: StepId=12.3 task 1: exited\n" +
			"srun: launch/slurm: _step_signal: Terminating StepId=12.3\n" +
			"srun: Job step aborted: Waiting up to 7 seconds for job step to finish.\n" + cancelledLine +
			"srun: error: n01: tasks 0,2: Killed\n",
	})
}

// TestSallocStatus is salloc's exit status for its command's end, as the
// peer's salloc: a signal a user sends is a normal end.
func TestSallocStatus(t *testing.T) {
	for name, tc := range map[string]struct {
		ec   job.ExitCode
		want int
	}{
		"exit 0":  {want: 0},
		"exit 3":  {ec: job.ExitCode{Status: 3}, want: 3},
		"SIGKILL": {ec: job.ExitCode{Signal: 9}, want: 0},
		"SIGINT":  {ec: job.ExitCode{Signal: 2}, want: 0},
		"SIGHUP":  {ec: job.ExitCode{Signal: 1}, want: 0},
		"SIGQUIT": {ec: job.ExitCode{Signal: 3}, want: 0},
		"SIGTERM": {ec: job.ExitCode{Signal: 15}, want: 1},
		"SIGSEGV": {ec: job.ExitCode{Signal: 11}, want: 1},
		"SIGUSR1": {ec: job.ExitCode{Signal: 10}, want: 1},
	} {
		if got := sallocStatus(tc.ec); got != tc.want {
			t.Errorf("%s: status %d, want %d", name, got, tc.want)
		}
	}
}

// TestAllocationRefused: the peer's words when the controller refuses
// the allocation, which differ between srun and salloc; a GRES refusal is
// its text alone, after the detail of Slurm's client checks; salloc
// names the job a refusal after its creation used up, srun does not.
// The peer's revoked line races its error lines (slurmctld's separate
// job-complete message): it came last in 20 of 38 runs of salloc
// --tmp=10, --gres=gpu:9 and -C 'gpu&cpu', first in 7, between the two
// error lines once and not at all in 10; Loam prints it last.
func TestAllocationRefused(t *testing.T) {
	gres := api.NewError(api.CodeInvalidGRES)
	tmp := api.NewError(api.CodeNodeConfigUnavailable)
	tmp.Detail, tmp.JobID = "Temporary disk specification can not be satisfied", 398
	gpus := api.NewError(api.CodeNodeConfigUnavailable)
	gpus.JobID = 400
	gres.Detail = `no node has gres "foo"`
	// The peer's salloc/srun -N1 --mem=999999999: the job was created
	// (id 22869 used up) before the refusal.
	mem := api.NewError(api.CodeNodeConfigUnavailable)
	mem.Detail, mem.JobID = "Memory specification can not be satisfied", 22869
	tests := map[string]struct {
		prog string
		args []string
		err  error
		want string
	}{
		"srun -p nosuch": {prog: "srun", args: []string{"-p", "nosuch", "true"}, err: api.NewError(api.CodeInvalidPartitionName),
			want: "srun: error: Unable to allocate resources: Invalid partition name specified\n"},
		"salloc -p nosuch": {prog: "salloc", args: []string{"-p", "nosuch", "true"}, err: api.NewError(api.CodeInvalidPartitionName),
			want: "salloc: error: Job submit/allocate failed: Invalid partition name specified\n"},
		"srun --gres=foo:1": {prog: "srun", args: []string{"--gres=foo:1", "true"}, err: gres,
			want: "srun: error: Invalid generic resource (gres) specification\n"},
		"salloc --gpus-per-task=1": {prog: "salloc", args: []string{"--gpus-per-task=1", "true"}, err: gres,
			want: "salloc: error: Failed to validate job spec. --gpus-per-task used without either --gpus or -n/--ntasks is not allowed.\n" +
				"salloc: error: Invalid generic resource (gres) specification\n"},
		"salloc --mem too big": {prog: "salloc", args: []string{"-N1", "--mem=999999999", "true"}, err: mem,
			want: "salloc: error: Memory specification can not be satisfied\n" +
				"salloc: error: Job submit/allocate failed: Requested node configuration is not available\n" +
				"salloc: Job allocation 22869 has been revoked.\n"},
		"salloc --tmp too big": {prog: "salloc", args: []string{"--tmp=10", "true"}, err: tmp,
			want: "salloc: error: Temporary disk specification can not be satisfied\n" +
				"salloc: error: Job submit/allocate failed: Requested node configuration is not available\n" +
				"salloc: Job allocation 398 has been revoked.\n"},
		"srun --tmp too big": {prog: "srun", args: []string{"--tmp=10", "true"}, err: tmp,
			want: "srun: error: Temporary disk specification can not be satisfied\n" +
				"srun: error: Unable to allocate resources: Requested node configuration is not available\n"},
		"salloc more GPUs than a node has": {prog: "salloc", args: []string{"--gres=gpu:9", "true"}, err: gpus,
			want: "salloc: error: Job submit/allocate failed: Requested node configuration is not available\n" +
				"salloc: Job allocation 400 has been revoked.\n"},
		"srun more GPUs than a node has": {prog: "srun", args: []string{"--gres=gpu:9", "true"}, err: gpus,
			want: "srun: error: Unable to allocate resources: Requested node configuration is not available\n"},
		"srun --mem too big": {prog: "srun", args: []string{"-N1", "--mem=999999999", "true"}, err: mem,
			want: "srun: error: Memory specification can not be satisfied\n" +
				"srun: error: Unable to allocate resources: Requested node configuration is not available\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeSteps{fakeController: &fakeController{}, t: t, allocErr: tc.err}
			te := newTestEnv(f.fakeController, 1_800_000_000)
			te.Dial = func(context.Context) (Controller, error) { return f, nil }
			h := stepHooks{notify: func(chan<- os.Signal) func() { return func() {} }}
			run := runSrun
			if tc.prog == "salloc" {
				run = runSalloc
			}
			if code := run(context.Background(), te.Env, tc.args, h); code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			if diff := cmp.Diff(tc.want, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSrunInterruptStatus: one Ctrl-C prints the tasks by state in
// Slurm's order (running, exited abnormally, exited), as the peer's srun
// -n3 where task 1 exited 3 and task 2 exited 0; with -X Ctrl-C goes to
// the tasks at once, said as the peer says it; with --quit-on-interrupt
// the first Ctrl-C aborts the step.
func TestSrunInterruptStatus(t *testing.T) {
	three := api.StepLayout{NodeList: "n01", Tasks: 3, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0, 1, 2}}}}
	tests := map[string]struct {
		args       []string
		wantCode   int
		wantStderr string
	}{
		"status": {args: []string{"-N1", "-n3", "x"}, wantCode: 3,
			wantStderr: "srun: error: n01: task 1: Exited with exit code 3\n" +
				"srun: interrupt (one more within 1 sec to abort)\n" +
				"srun: StepId=12.3 task 0: running\n" +
				"srun: StepId=12.3 task 1: exited abnormally\n" +
				"srun: StepId=12.3 task 2: exited\n"},
		// The peer: "sending Ctrl-C", "forcing job termination", then
		// "Job step aborted" at the first Ctrl-C.
		"--quit-on-interrupt": {args: []string{"--quit-on-interrupt", "-N1", "-n3", "x"}, wantCode: 3,
			wantStderr: "srun: error: n01: task 1: Exited with exit code 3\n" +
				"srun: sending Ctrl-C to StepId=12.3\n" +
				"srun: forcing job termination\n" +
				"srun: Job step aborted: Waiting up to 7 seconds for job step to finish.\n"},
		"-X": {args: []string{"-X", "-N1", "-n3", "x"}, wantCode: 130,
			wantStderr: "srun: error: n01: task 1: Exited with exit code 3\n" +
				"srun: sending Ctrl-C to StepId=12.3\n" +
				"srun: error: n01: task 0: Interrupt\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			disabled := slices.Contains(tc.args, "-X")
			runSrunCase(t, srunCase{
				// SIGUSR1 goes to the tasks after the Ctrl-C was handled.
				env: insideJobEnv, args: tc.args, layout: three, signals: []os.Signal{syscall.SIGINT, syscall.SIGUSR1},
				script: []func(n *fakeNode){func(n *fakeNode) {
					n.exit(api.StepIOExit{Tasks: []int{1}, ExitCode: job.ExitCode{Status: 3}})
					n.exit(api.StepIOExit{Tasks: []int{2}})
					n.out(0, "started\n") // the Ctrl-C comes after it
					if disabled {
						if f := n.await(api.IOSignal); f.Task != uint32(syscall.SIGINT) {
							t.Errorf("tasks got signal %d, want SIGINT", f.Task)
						}
						n.exit(api.StepIOExit{Tasks: []int{0}, ExitCode: job.ExitCode{Signal: 2}})
					} else {
						n.await(api.IOSignal)
						n.exit(api.StepIOExit{Tasks: []int{0}})
					}
					n.done()
				}},
				wantCode: tc.wantCode, wantStdout: "started\n", wantStderr: tc.wantStderr,
			})
		})
	}
}

// TestSrunStepTimeLimit: srun -t gives the step its own limit, which the
// nodes enforce (UNLIMITED: none but the job's).
func TestSrunStepTimeLimit(t *testing.T) {
	for name, tc := range map[string]struct {
		args []string
		want int64
	}{
		"-t 5":                            {args: []string{"-t", "5", "x"}, want: 300},
		"-t 1:30, whole minutes as Slurm": {args: []string{"-t", "1:30", "x"}, want: 120},
		"-t UNLIMITED":                    {args: []string{"-t", "UNLIMITED", "x"}},
		"no -t":                           {args: []string{"x"}},
	} {
		t.Run(name, func(t *testing.T) {
			f, _ := runSrunCase(t, srunCase{env: insideJobEnv, args: append([]string{"-N1", "-n2"}, tc.args...), layout: oneNode,
				script: []func(n *fakeNode){func(n *fakeNode) {
					n.exit(api.StepIOExit{Tasks: []int{0, 1}})
					n.done()
				}}})
			if len(f.created) != 1 || f.created[0].TimeLimit != tc.want {
				t.Errorf("steps %+v, want one with time limit %d s", f.created, tc.want)
			}
		})
	}
}

// TestSrunJobEndedUnderStep: tasks killed because their job ended (srun
// -t1 in its own allocation, out of time on the peer) are reported after
// "Job step aborted", without "Force Terminated".
func TestSrunJobEndedUnderStep(t *testing.T) {
	f, _ := runSrunCase(t, srunCase{
		env: insideJobEnv, args: []string{"-N1", "-n2", "sleep", "200"}, layout: oneNode,
		waits: []api.Allocation{{JobID: 12, State: job.Timeout, Ended: true}},
		script: []func(n *fakeNode){func(n *fakeNode) {
			n.err(0, "slurmstepd-n01: error: *** STEP 12.3 ON n01 CANCELLED AT 2027-01-15T08:00:00 DUE TO TIME LIMIT ***\n")
			n.exit(api.StepIOExit{Tasks: []int{0, 1}, ExitCode: job.ExitCode{Signal: 15}})
			n.done()
		}},
		wantCode: 143,
		wantStderr: "slurmstepd-n01: error: *** STEP 12.3 ON n01 CANCELLED AT 2027-01-15T08:00:00 DUE TO TIME LIMIT ***\n" +
			"srun: Job step aborted: Waiting up to 7 seconds for job step to finish.\n" +
			"srun: error: n01: tasks 0-1: Terminated\n",
	})
	want := []api.StepCompleteRequest{{JobID: 12, StepID: 3, State: job.Cancelled, ExitCode: job.ExitCode{Signal: 15}}}
	if diff := cmp.Diff(want, f.completed); diff != "" {
		t.Errorf("step end reported (-want +got):\n%s", diff)
	}
}

// TestSrunTermWhileJobEnds: SIGTERM while srun's job is ending (its nodes
// signal srun with the tasks when the job is cancelled or requeued) does
// not kill the tasks: they keep their KillWait to save their work, as
// with the peer, whose srun in a cancelled batch job prints the step
// aborted, then "forcing job termination", and its tasks' TERM traps run.
func TestSrunTermWhileJobEnds(t *testing.T) {
	asked := make(chan struct{})
	var once sync.Once
	f, _ := runSrunCase(t, srunCase{
		env: insideJobEnv, args: []string{"-N1", "-n2", "train"}, layout: oneNode,
		signals: []os.Signal{syscall.SIGTERM},
		waits:   []api.Allocation{{JobID: 12, State: job.Running, Ended: true}},
		onWait:  func() { once.Do(func() { close(asked) }) },
		script: []func(n *fakeNode){func(n *fakeNode) {
			n.out(0, "started\n")
			<-asked // srun handles the signal before the tasks' ends
			n.out(0, "saved\n")
			n.exit(api.StepIOExit{Tasks: []int{0, 1}})
			n.done()
		}},
		wantStdout: "started\nsaved\n",
		wantStderr: "srun: Job step aborted: Waiting up to 7 seconds for job step to finish.\n" +
			"srun: forcing job termination\n",
	})
	want := []api.StepCompleteRequest{{JobID: 12, StepID: 3, State: job.Cancelled}}
	if diff := cmp.Diff(want, f.completed); diff != "" {
		t.Errorf("step end reported (-want +got):\n%s", diff)
	}
}
