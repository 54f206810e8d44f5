package command

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// fakeNode plays one node's step process for srun: it connects to srun's
// address, says hello with the step's key and then follows its script.
type fakeNode struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
}

func (n *fakeNode) send(kind api.StepIOKind, task uint32, data []byte) {
	if _, err := n.conn.Write(api.AppendIOFrame(nil, kind, task, data)); err != nil {
		n.t.Errorf("node write: %v", err)
	}
}

func (n *fakeNode) out(task uint32, s string) { n.send(api.IOStdout, task, []byte(s)) }
func (n *fakeNode) err(task uint32, s string) { n.send(api.IOStderr, task, []byte(s)) }
func (n *fakeNode) exit(e api.StepIOExit) {
	data, _ := json.Marshal(e)
	n.send(api.IOExit, 0, data)
}
func (n *fakeNode) done() { n.send(api.IODone, 0, nil); n.conn.Close() }

// await reads srun's frames until one of kind (returned).
func (n *fakeNode) await(kind api.StepIOKind) api.StepIOFrame {
	for {
		f, err := api.ReadIOFrame(n.r)
		if err != nil {
			n.t.Errorf("waiting for frame %d: %v", kind, err)
			return api.StepIOFrame{}
		}
		if f.Kind == kind {
			return f
		}
	}
}

// fakeSteps is a controller that runs steps with scripted nodes.
type fakeSteps struct {
	*fakeController
	t      *testing.T
	layout api.StepLayout
	script []func(n *fakeNode) // one per node
	// createErr fails CreateStep; waits are WaitAllocation's answers in
	// turn.
	createErr error
	waits     []api.Allocation
	// allocErr refuses Allocate; onWait sees each WaitAllocation.
	allocErr error
	onWait   func()
	// confKill is slurm.conf's KillOnBadExit, in the step's answer.
	confKill bool

	mu        sync.Mutex
	created   []api.StepCreateRequest
	completed []api.StepCompleteRequest
	allocs    []api.AllocateRequest
	released  []api.AllocationReleaseRequest
	wg        sync.WaitGroup
}

func (f *fakeSteps) CreateStep(_ context.Context, req *api.StepCreateRequest) (*api.StepCreateResponse, error) {
	f.mu.Lock()
	f.created = append(f.created, *req)
	f.mu.Unlock()
	if f.createErr != nil {
		return nil, f.createErr
	}
	for i, script := range f.script {
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			conn, err := net.Dial("tcp", req.IO.Addr)
			if err != nil {
				f.t.Errorf("node %d: %v", i, err)
				return
			}
			h := api.StepIOHello{JobID: req.JobID, StepID: 3, NodeIndex: i, Node: f.layout.Nodes[i].Node}
			h.MAC = api.StepIOMAC(req.IO.Key, h.JobID, h.StepID, h.NodeIndex, h.Node)
			data, _ := json.Marshal(h)
			n := &fakeNode{t: f.t, conn: conn, r: bufio.NewReader(conn)}
			n.send(api.IOHello, 0, data)
			script(n)
		}()
	}
	return &api.StepCreateResponse{StepID: 3, Layout: f.layout, KillWait: 5, KillOnBadExit: f.confKill}, nil
}

func (f *fakeSteps) CompleteStep(_ context.Context, req *api.StepCompleteRequest) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.completed = append(f.completed, *req)
	return nil
}

func (f *fakeSteps) Allocate(_ context.Context, req *api.AllocateRequest) (*api.SubmitResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.allocs = append(f.allocs, *req)
	if f.allocErr != nil {
		return nil, f.allocErr
	}
	return &api.SubmitResponse{JobID: 7}, nil
}

func (f *fakeSteps) WaitAllocation(ctx context.Context, req *api.AllocationWaitRequest) (*api.Allocation, error) {
	if f.onWait != nil {
		f.onWait()
	}
	f.mu.Lock()
	if len(f.waits) == 0 {
		f.mu.Unlock()
		return nil, api.NewError(api.CodeInvalidJobID)
	}
	a := f.waits[0]
	if len(f.waits) > 1 {
		f.waits = f.waits[1:]
	}
	f.mu.Unlock()
	if !a.Ready && !a.Ended && req.Timeout > allocWaits[0] {
		<-ctx.Done() // still pending after the first wait: wait as long as srun does
		return nil, ctx.Err()
	}
	return &a, nil
}

func (f *fakeSteps) ReleaseAllocation(_ context.Context, req *api.AllocationReleaseRequest) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.released = append(f.released, *req)
	return nil
}

// twoNodes is a step of three tasks on n01 (0, 1) and n02 (2).
var twoNodes = api.StepLayout{NodeList: "n[01-02]", Tasks: 3,
	Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0, 1}}, {Node: "n02", TaskIDs: []int{2}}}}

// insideJobEnv is a batch script's environment, as far as srun reads it.
var insideJobEnv = []string{"SLURM_JOB_ID=12", "SLURM_JOB_NUM_NODES=2", "SLURM_NNODES=2", "SLURM_NTASKS=3", "PATH=/usr/bin"}

// srunCase runs srun against scripted nodes.
type srunCase struct {
	env     []string
	args    []string
	layout  api.StepLayout
	script  []func(n *fakeNode)
	waits   []api.Allocation
	signals []os.Signal // delivered once every node connected, 200 ms apart in the test clock
	create  error
	files   map[string]string // by absolute path
	// stdin is srun's standard input; terminal its terminal (--pty).
	stdin    string
	terminal func() (ptyTerminal, error)
	// abortNow: srun's wait after an abort is over at once.
	abortNow bool
	// onEnv sees srun's environment before it runs; onWait each of its
	// WaitAllocation calls.
	onEnv  func(env *Env)
	onWait func()
	// confKill is slurm.conf's KillOnBadExit.
	confKill bool

	wantCode   int
	wantStdout string
	wantStderr string
	wantState  job.State
	wantExit   job.ExitCode
}

func runSrunCase(t *testing.T, tc srunCase) (*fakeSteps, *testEnv) {
	t.Helper()
	f := &fakeSteps{fakeController: &fakeController{}, t: t, layout: tc.layout, script: tc.script, createErr: tc.create, waits: tc.waits,
		onWait: tc.onWait, confKill: tc.confKill}
	te := newTestEnv(f.fakeController, 1_800_000_000)
	te.Environ = append(te.Environ, tc.env...)
	te.Dial = func(context.Context) (Controller, error) { return f, nil }
	for name, data := range tc.files {
		te.files[name] = []byte(data)
	}
	seen := &firstWrite{w: te.stdout, seen: make(chan struct{})}
	te.Stdout = seen
	h := stepHooks{
		notify:      func(ch chan<- os.Signal) func() { go deliver(ch, tc.signals, seen.seen); return func() {} },
		ioHost:      func() string { return "127.0.0.1" },
		stdinIsNull: func() bool { return tc.stdin == "" },
		terminal:    tc.terminal,
		// -W's time is up as soon as srun starts waiting.
		afterFunc: func(time.Duration) <-chan time.Time {
			c := make(chan time.Time, 1)
			c <- time.Time{}
			return c
		},
	}
	if tc.abortNow {
		h.abortAfterFunc = h.afterFunc
	}
	if tc.stdin != "" {
		te.Stdin = strings.NewReader(tc.stdin)
	}
	if tc.onEnv != nil {
		tc.onEnv(te.Env)
	}
	code := runSrun(context.Background(), te.Env, tc.args, h)
	f.wg.Wait()
	if code != tc.wantCode {
		t.Errorf("exit status %d, want %d\nstderr: %s", code, tc.wantCode, te.stderr)
	}
	if diff := cmp.Diff(tc.wantStdout, te.stdout.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(tc.wantStderr, te.stderr.String()); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
	return f, te
}

// firstWrite passes writes on and closes seen at the first: srun has
// then handled the hello of the node that wrote.
type firstWrite struct {
	w    *bytes.Buffer
	seen chan struct{}
	once sync.Once
}

func (f *firstWrite) Write(p []byte) (int, error) {
	defer f.once.Do(func() { close(f.seen) })
	return f.w.Write(p)
}

// deliver hands srun its signals once the step printed its first output;
// the test clock stands still, so two Ctrl-C come within a second.
func deliver(ch chan<- os.Signal, sigs []os.Signal, seen <-chan struct{}) {
	if len(sigs) == 0 {
		return
	}
	<-seen
	for _, s := range sigs {
		ch <- s
	}
}

// TestSrunStep runs steps inside a job against scripted nodes and checks
// what srun prints (the peer's words) and reports.
func TestSrunStep(t *testing.T) {
	tests := map[string]srunCase{
		"labelled output, a partial line, the highest exit status": {
			env: insideJobEnv, args: []string{"-l", "hostname"}, layout: twoNodes,
			script: []func(n *fakeNode){
				func(n *fakeNode) {
					n.out(0, "a\n")
					n.out(1, "b")
					n.exit(api.StepIOExit{Tasks: []int{0, 1}})
					n.done()
				},
				func(n *fakeNode) {
					n.exit(api.StepIOExit{Tasks: []int{2}, ExitCode: job.ExitCode{Status: 3}})
					n.done()
				},
			},
			wantCode: 3, wantStdout: "0: a\n1: b\n", wantStderr: "srun: error: n02: task 2: Exited with exit code 3\n",
			wantState: job.Failed, wantExit: job.ExitCode{Status: 3},
		},
		"a task killed by SIGKILL: Force Terminated, 128+9": {
			env: insideJobEnv, args: []string{"-n1", "x"}, layout: api.StepLayout{NodeList: "n01", Tasks: 1, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0}}}},
			script: []func(n *fakeNode){func(n *fakeNode) {
				n.exit(api.StepIOExit{Tasks: []int{0}, ExitCode: job.ExitCode{Signal: 9}})
				n.done()
			}},
			wantCode: 137,
			wantStderr: "srun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1\n" +
				"srun: error: n01: task 0: Killed\nsrun: Force Terminated StepId=12.3\n",
			wantState: job.Failed, wantExit: job.ExitCode{Signal: 9},
		},
		"a task killed by SIGTERM: Force Terminated, 128+15": {
			env: insideJobEnv, args: []string{"-N1", "-n2", "x"}, layout: oneNode,
			script: []func(n *fakeNode){func(n *fakeNode) {
				n.exit(api.StepIOExit{Tasks: []int{0}})
				n.exit(api.StepIOExit{Tasks: []int{1}, ExitCode: job.ExitCode{Signal: 15}})
				n.done()
			}},
			wantCode:   143,
			wantStderr: "srun: error: n01: task 1: Terminated\nsrun: Force Terminated StepId=12.3\n",
			wantState:  job.Failed, wantExit: job.ExitCode{Signal: 15},
		},
		"a signal outweighs a higher exit status (peer: 137, not 200)": {
			env: insideJobEnv, args: []string{"-N1", "-n2", "x"}, layout: oneNode,
			script: []func(n *fakeNode){func(n *fakeNode) {
				n.exit(api.StepIOExit{Tasks: []int{1}, ExitCode: job.ExitCode{Signal: 9}})
				n.exit(api.StepIOExit{Tasks: []int{0}, ExitCode: job.ExitCode{Status: 200}})
				n.done()
			}},
			wantCode: 137,
			wantStderr: "srun: error: n01: task 1: Killed\nsrun: error: n01: task 0: Exited with exit code 200\n" +
				"srun: Force Terminated StepId=12.3\n",
			wantState: job.Failed, wantExit: job.ExitCode{Signal: 9},
		},
		"the highest signal, whichever came first": {
			env: insideJobEnv, args: []string{"-N1", "-n2", "x"}, layout: oneNode,
			script: []func(n *fakeNode){func(n *fakeNode) {
				n.exit(api.StepIOExit{Tasks: []int{1}, ExitCode: job.ExitCode{Signal: 11}})
				n.exit(api.StepIOExit{Tasks: []int{0}, ExitCode: job.ExitCode{Signal: 10}})
				n.done()
			}},
			wantCode:   139,
			wantStderr: "srun: error: n01: task 1: Segmentation fault\nsrun: error: n01: task 0: User defined signal 1\n",
			wantState:  job.Failed, wantExit: job.ExitCode{Signal: 11},
		},
		"a task killed by SIGSEGV: no Force Terminated": {
			env: insideJobEnv, args: []string{"-N1", "-n2", "x"}, layout: oneNode,
			script: []func(n *fakeNode){func(n *fakeNode) {
				n.exit(api.StepIOExit{Tasks: []int{0, 1}, ExitCode: job.ExitCode{Signal: 11}})
				n.done()
			}},
			wantCode:   139,
			wantStderr: "srun: error: n01: tasks 0-1: Segmentation fault\n",
			wantState:  job.Failed, wantExit: job.ExitCode{Signal: 11},
		},
		"--kill-on-bad-exit ends the step after the first bad exit": {
			env: insideJobEnv, args: []string{"-K", "x"}, layout: twoNodes,
			script: []func(n *fakeNode){
				func(n *fakeNode) {
					n.await(api.IOTerminate)
					n.err(0, "slurmstepd-n01: error: *** STEP 12.3 ON n01 CANCELLED AT 2027-01-15T08:00:00 ***\n")
					n.exit(api.StepIOExit{Tasks: []int{0, 1}, ExitCode: job.ExitCode{Signal: 15}})
					n.done()
				},
				func(n *fakeNode) {
					n.exit(api.StepIOExit{Tasks: []int{2}, ExitCode: job.ExitCode{Status: 4}})
					n.done()
				},
			},
			wantCode: 143,
			wantStderr: "srun: error: n02: task 2: Exited with exit code 4\n" +
				"srun: launch/slurm: _step_signal: Terminating StepId=12.3\n" +
				"slurmstepd-n01: error: *** STEP 12.3 ON n01 CANCELLED AT 2027-01-15T08:00:00 ***\n" +
				"srun: error: n01: tasks 0-1: Terminated\nsrun: Force Terminated StepId=12.3\n",
			wantState: job.Failed, wantExit: job.ExitCode{Signal: 15},
		},
		"-K after the other tasks ended: nothing left to kill": {
			env: insideJobEnv, args: []string{"-N1", "-n2", "-K", "x"}, layout: oneNode,
			script: []func(n *fakeNode){func(n *fakeNode) {
				n.exit(api.StepIOExit{Tasks: []int{0}})
				n.exit(api.StepIOExit{Tasks: []int{1}, ExitCode: job.ExitCode{Status: 1}})
				n.done()
			}},
			wantCode: 1,
			wantStderr: "srun: error: n01: task 1: Exited with exit code 1\n" +
				"srun: launch/slurm: _step_signal: Terminating StepId=12.3\n",
			wantState: job.Failed, wantExit: job.ExitCode{Status: 1},
		},
		"the controller refuses the step": {
			env: insideJobEnv, args: []string{"-c8", "x"}, layout: twoNodes, create: api.NewError(api.CodeTooManyCPUs),
			wantCode:   1,
			wantStderr: "srun: error: Unable to create step for job 12: More processors requested than permitted\n",
		},
		"GPUs in a job without any": {
			env: insideJobEnv, args: []string{"--gpus=1", "x"}, layout: twoNodes,
			create:   &api.Error{Code: api.CodeInvalidGRES, Message: api.CodeInvalidGRES.Text(), Detail: "Step requested GRES but job doesn't have GRES"},
			wantCode: 1,
			wantStderr: "srun: error: Step requested GRES but job doesn't have GRES\n" +
				"srun: error: Unable to create step for job 12: Invalid generic resource (gres) specification\n",
		},
		"more nodes than the job has": {
			env: insideJobEnv, args: []string{"-N3", "x"}, layout: twoNodes,
			wantCode:   1,
			wantStderr: "srun: error: Only allocated 2 nodes asked for 3\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f, _ := runSrunCase(t, tc)
			if tc.wantState == "" {
				if len(f.completed) != 0 {
					t.Errorf("completed %+v, want no step", f.completed)
				}
				return
			}
			want := []api.StepCompleteRequest{{JobID: 12, StepID: 3, State: tc.wantState, ExitCode: tc.wantExit}}
			if diff := cmp.Diff(want, f.completed); diff != "" {
				t.Errorf("step end reported (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSrunCtrlC: one Ctrl-C prints the step's status; a second within a
// second sends SIGINT to the tasks and ends the step, as the peer's srun.
func TestSrunCtrlC(t *testing.T) {
	one := api.StepLayout{NodeList: "n01", Tasks: 2, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0, 1}}}}
	gotSignal := make(chan uint32, 1)
	tc := srunCase{
		env: insideJobEnv, args: []string{"-N1", "-n2", "sleep", "30"}, layout: one,
		signals: []os.Signal{syscall.SIGINT, syscall.SIGINT},
		script: []func(n *fakeNode){func(n *fakeNode) {
			n.out(0, "started\n")
			gotSignal <- n.await(api.IOSignal).Task
			n.await(api.IOTerminate)
			n.err(0, "slurmstepd-n01: error: *** STEP 12.3 ON n01 CANCELLED AT 2027-01-15T08:00:00 ***\n")
			n.exit(api.StepIOExit{Tasks: []int{0, 1}, ExitCode: job.ExitCode{Signal: 2}})
			n.done()
		}},
		wantCode: 130, wantStdout: "started\n",
		wantStderr: "srun: interrupt (one more within 1 sec to abort)\n" +
			"srun: StepId=12.3 tasks 0-1: running\n" +
			"srun: sending Ctrl-C to StepId=12.3\n" +
			"srun: forcing job termination\n" +
			"srun: Job step aborted: Waiting up to 7 seconds for job step to finish.\n" +
			"slurmstepd-n01: error: *** STEP 12.3 ON n01 CANCELLED AT 2027-01-15T08:00:00 ***\n",
	}
	f, _ := runSrunCase(t, tc)
	if sig := <-gotSignal; sig != uint32(syscall.SIGINT) {
		t.Errorf("tasks got signal %d, want SIGINT", sig)
	}
	if len(f.completed) != 1 || f.completed[0].State != job.Cancelled {
		t.Errorf("step end %+v, want CANCELLED", f.completed)
	}
}

// TestSrunAllocates: outside a job srun makes an allocation, says it
// waits when the job does not start at once, runs the step with the
// job's variables and releases the job with the step's exit.
func TestSrunAllocates(t *testing.T) {
	one := api.StepLayout{NodeList: "n01", Tasks: 1, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0}}}}
	ready := api.Allocation{JobID: 7, State: job.Running, Ready: true, Name: "hostname", Partition: "normal",
		ClusterName: "c", NodeList: "n01", Nodes: []api.NodeAllocation{{Node: "n01", CPUs: 1}}, TasksPerNode: []int{1}}
	tc := srunCase{
		args: []string{"-N1", "hostname"}, layout: one,
		waits: []api.Allocation{{JobID: 7, State: job.Pending}, ready},
		script: []func(n *fakeNode){func(n *fakeNode) {
			n.out(0, "n01\n")
			n.exit(api.StepIOExit{Tasks: []int{0}})
			n.done()
		}},
		wantStdout: "n01\n",
		wantStderr: "srun: job 7 queued and waiting for resources\nsrun: job 7 has been allocated resources\n",
	}
	f, _ := runSrunCase(t, tc)
	if len(f.allocs) != 1 || f.allocs[0].Job.Name != "hostname" || f.allocs[0].Job.MinNodes != 1 {
		t.Errorf("allocation asked %+v", f.allocs)
	}
	if len(f.created) != 1 || !hasEntry(f.created[0].Environment, "SLURM_JOB_ID=7") || !hasEntry(f.created[0].Environment, "SLURM_JOB_NODELIST=n01") {
		t.Errorf("step environment lacks the job's variables: %v", f.created)
	}
	if diff := cmp.Diff([]api.AllocationReleaseRequest{{JobID: 7}}, f.released); diff != "" {
		t.Errorf("release (-want +got):\n%s", diff)
	}
}

// TestAllocationInterrupted: Ctrl-C while the allocation waits cancels
// it, with the peer's words for srun and salloc.
func TestAllocationInterrupted(t *testing.T) {
	for prog, want := range map[string]string{
		"srun": "srun: job 7 queued and waiting for resources\nsrun: Job allocation 7 has been revoked\nsrun: Force Terminated JobId=7\n",
		"salloc": "salloc: Pending job allocation 7\nsalloc: job 7 queued and waiting for resources\n" +
			"salloc: Job allocation 7 has been revoked.\nsalloc: Job aborted due to signal\n",
	} {
		t.Run(prog, func(t *testing.T) {
			f := &fakeSteps{fakeController: &fakeController{}, t: t, waits: []api.Allocation{{JobID: 7, State: job.Pending}}}
			te := newTestEnv(f.fakeController, 1_800_000_000)
			te.Dial = func(context.Context) (Controller, error) { return f, nil }
			queued := &firstWrite{w: te.stderr, seen: make(chan struct{})}
			te.Stderr = queued
			h := stepHooks{notify: func(ch chan<- os.Signal) func() {
				go func() { <-queued.seen; ch <- syscall.SIGINT }()
				return func() {}
			}}
			run := runSrun
			if prog == "salloc" {
				run = runSalloc
			}
			if code := run(context.Background(), te.Env, []string{"true"}, h); code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			if diff := cmp.Diff(want, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]api.AllocationReleaseRequest{{JobID: 7}}, f.released); diff != "" {
				t.Errorf("release (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSrunBadJobID is the peer's answer to --jobid of a job that is not
// running.
func TestSrunBadJobID(t *testing.T) {
	runSrunCase(t, srunCase{args: []string{"--jobid=999999", "true"}, wantCode: 1,
		wantStderr: "srun: error: Unable to confirm allocation for job 999999: Invalid job id specified\n" +
			"srun: Check SLURM_JOB_ID environment variable. Expired or invalid job 999999\n"})
}

// TestSallocRunsCommand checks salloc's messages and the variables its
// command gets.
func TestSallocRunsCommand(t *testing.T) {
	f := &fakeSteps{fakeController: &fakeController{}, t: t, waits: []api.Allocation{{JobID: 7, State: job.Running, Ready: true,
		Name: "interactive", Partition: "normal", ClusterName: "c", NodeList: "n[01-02]",
		Nodes: []api.NodeAllocation{{Node: "n01", CPUs: 1}, {Node: "n02", CPUs: 1}}, TasksPerNode: []int{1, 1}}}}
	te := newTestEnv(f.fakeController, 1_800_000_000)
	te.Dial = func(context.Context) (Controller, error) { return f, nil }
	var gotArgv, gotEnv []string
	h := stepHooks{notify: func(chan<- os.Signal) func() { return func() {} },
		runLocal: func(argv, env []string, dir string, _ <-chan os.Signal) job.ExitCode {
			gotArgv, gotEnv = argv, env
			return job.ExitCode{Status: 5}
		}}
	code := runSalloc(context.Background(), te.Env, []string{"-N2", "bash", "-c", "exit 5"}, h)
	if code != 5 {
		t.Errorf("exit status %d, want the command's 5", code)
	}
	want := "salloc: Granted job allocation 7\nsalloc: Relinquishing job allocation 7\n"
	if diff := cmp.Diff(want, te.stderr.String()); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"bash", "-c", "exit 5"}, gotArgv); diff != "" {
		t.Errorf("command (-want +got):\n%s", diff)
	}
	for _, kv := range []string{"SLURM_JOB_ID=7", "SLURM_JOB_NODELIST=n[01-02]", "SLURM_JOB_NUM_NODES=2",
		"SLURM_JOB_CPUS_PER_NODE=1(x2)", "SLURM_TASKS_PER_NODE=1(x2)", "SLURM_JOB_NAME=interactive", "SLURM_NODE_ALIASES=(null)"} {
		if !hasEntry(gotEnv, kv) {
			t.Errorf("command environment lacks %s", kv)
		}
	}
	if diff := cmp.Diff([]api.AllocationReleaseRequest{{JobID: 7, ExitCode: job.ExitCode{Status: 5}}}, f.released); diff != "" {
		t.Errorf("release (-want +got):\n%s", diff)
	}
}

func hasEntry(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestTaskWriter(t *testing.T) {
	var b strings.Builder
	w := newTaskWriter(&b, true, false, 2)
	w.write(3, []byte("one\ntw"))
	w.write(11, []byte("x\n"))
	w.write(3, []byte("o\nthree"))
	w.flushAll()
	want := " 3: one\n11: x\n 3: two\n 3: three\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("labelled output (-want +got):\n%s", diff)
	}
}

// TestTaskWriterUnbuffered: -u passes chunks on as they come; with -l
// every line of a chunk is labelled and a partial one ended, as the
// peer's srun -u -l prints printf ab, then printf 'cd\nef' ("0: ab",
// "0: cd", "0: ef").
func TestTaskWriterUnbuffered(t *testing.T) {
	for name, tc := range map[string]struct {
		label bool
		want  string
	}{
		"-u":    {want: "abcd\nefxg\n"},
		"-u -l": {label: true, want: "0: ab\n0: cd\n0: ef\n1: x\n0: g\n"},
	} {
		var b strings.Builder
		w := newTaskWriter(&b, tc.label, true, 1)
		w.write(0, []byte("ab"))
		w.write(0, []byte("cd\nef"))
		w.write(1, []byte("x"))
		w.write(0, []byte("g\n"))
		w.flushAll()
		if diff := cmp.Diff(tc.want, b.String()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func TestTaskList(t *testing.T) {
	for in, want := range map[string]string{"3": "task 3", "0,1": "tasks 0-1", "4,0,1,2": "tasks 0-2,4", "1,3,5": "tasks 1,3,5"} {
		var tasks []int
		for _, s := range strings.Split(in, ",") {
			n := 0
			for _, c := range s {
				n = n*10 + int(c-'0')
			}
			tasks = append(tasks, n)
		}
		if got := taskList(tasks); got != want {
			t.Errorf("taskList(%s) = %q, want %q", in, got, want)
		}
	}
}
