package step

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sirupsen/logrus"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/isolation"
	"github.com/loamhpc/loam/pkg/isolation/cgroup"
	"github.com/loamhpc/loam/pkg/job"
)

// fakeSrun is srun's end of a step's streams in a test: it accepts one
// node, checks its hello and records every frame until IODone.
type fakeSrun struct {
	t      *testing.T
	ln     net.Listener
	key    []byte
	conn   net.Conn
	frames chan api.StepIOFrame
}

func newFakeSrun(t *testing.T) *fakeSrun {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return &fakeSrun{t: t, ln: ln, key: []byte("0123456789abcdef0123456789abcdef"), frames: make(chan api.StepIOFrame, 1024)}
}

// serve accepts the node's connection and reads its frames.
func (f *fakeSrun) serve() {
	conn, err := f.ln.Accept()
	if err != nil {
		close(f.frames)
		return
	}
	f.conn = conn
	r := bufio.NewReader(conn)
	for {
		fr, err := api.ReadIOFrame(r)
		if err != nil {
			close(f.frames)
			return
		}
		f.frames <- fr
	}
}

// send writes a frame; a node that already ended is not an error.
func (f *fakeSrun) send(kind api.StepIOKind, task uint32, data []byte) {
	_, _ = f.conn.Write(api.AppendIOFrame(nil, kind, task, data))
}

// stepOutcome is what srun heard from one node. Exits are by task: how
// tasks ending at about the same time are grouped depends on timing.
type stepOutcome struct {
	Hello  bool
	Stdout map[uint32]string
	Stderr map[uint32]string
	Exits  map[int]job.ExitCode
	Done   bool
}

// next waits for the next frame.
func (f *fakeSrun) next(within time.Duration) (api.StepIOFrame, bool) {
	select {
	case fr, ok := <-f.frames:
		return fr, ok
	case <-time.After(within):
		f.t.Fatal("no frame from the node")
	}
	return api.StepIOFrame{}, false
}

// collect reads frames until IODone (or the connection ends).
func (f *fakeSrun) collect(until func(api.StepIOFrame)) stepOutcome {
	o := stepOutcome{Stdout: map[uint32]string{}, Stderr: map[uint32]string{}, Exits: map[int]job.ExitCode{}}
	for {
		fr, ok := f.next(30 * time.Second)
		if !ok {
			return o
		}
		if until != nil {
			until(fr)
		}
		switch fr.Kind {
		case api.IOHello:
			var h api.StepIOHello
			o.Hello = json.Unmarshal(fr.Data, &h) == nil && h.Valid(f.key)
		case api.IOStdout:
			o.Stdout[fr.Task] += string(fr.Data)
		case api.IOStderr:
			o.Stderr[fr.Task] += string(fr.Data)
		case api.IOExit:
			var e api.StepIOExit
			if err := json.Unmarshal(fr.Data, &e); err != nil {
				f.t.Fatal(err)
			}
			for _, task := range e.Tasks {
				o.Exits[task] = e.ExitCode
			}
		case api.IODone:
			o.Done = true
			return o
		}
	}
}

// fixtures numbers the fixtures' cgroups.
var fixtures int

// stepFixture writes a job's spool directory and a step launch in it.
func stepFixture(t *testing.T, srun *fakeSrun, step *api.StepCreateRequest, tasks []int) string {
	t.Helper()
	jobDir := filepath.Join(t.TempDir(), "1")
	if err := os.MkdirAll(jobDir, 0o700); err != nil {
		t.Fatal(err)
	}
	fixtures++
	group := fmt.Sprintf("loam-steptest/%d/f%d/job_1", os.Getpid(), fixtures)
	l := spool.Launch{Node: "n1", Hostname: "host1", Group: group, CPUs: "0",
		Request: api.LaunchRequest{JobID: 1, Name: "job", UserName: "root", Alloc: api.NodeAllocation{Node: "n1", CPUs: 4}}}
	if err := spool.WriteJSON(filepath.Join(jobDir, spool.LaunchFile), l); err != nil {
		t.Fatal(err)
	}
	step.IO = api.StepIOAddr{Addr: srun.ln.Addr().String(), Key: srun.key}
	if step.WorkDir == "" {
		step.WorkDir = t.TempDir()
	}
	step.Environment = append(step.Environment, "PATH=/usr/bin:/bin")
	req := api.StepLaunchRequest{JobID: 1, StepID: 0, Step: *step, KillWait: 1,
		Layout: api.StepLayout{NodeList: "n1", Tasks: len(tasks), Nodes: []api.StepNode{{Node: "n1", TaskIDs: tasks, CPUs: 4}}}}
	dir := Dir(jobDir, 0)
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := spool.WriteJSON(filepath.Join(dir, SpecFile), req); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { removeGroups(filepath.Dir(group)) })
	return dir
}

// removeGroups removes a fixture's cgroups (empty by now), deepest
// first, and the shared parents when nothing else uses them.
func removeGroups(root string) {
	dirs, _ := filepath.Glob("/sys/fs/cgroup/*/" + root)
	for _, d := range dirs {
		for _, p := range []string{filepath.Join(d, "job_1", "step_0"), filepath.Join(d, "job_1"), d,
			filepath.Dir(d), filepath.Dir(filepath.Dir(d))} {
			_ = os.Remove(p)
		}
	}
}

// isolator returns the host's cgroups, skipping without root.
func isolator(t *testing.T) isolation.Isolator {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("the step process runs tasks in cgroups as their user: needs root")
	}
	iso, err := cgroup.New()
	if err != nil {
		t.Skipf("no cgroups: %v", err)
	}
	return iso
}

// runFixture runs the step process on dir in the background and returns
// its exit status channel once it reported ready.
func runFixture(t *testing.T, iso isolation.Isolator, dir string) <-chan int {
	t.Helper()
	log := logrus.New()
	log.SetOutput(t.Output())
	readyc, done := make(chan error, 1), make(chan int, 1)
	go func() { done <- runStep(dir, iso, logrus.NewEntry(log), func(err error) { readyc <- err }) }()
	select {
	case err := <-readyc:
		if err != nil {
			t.Fatalf("step not ready: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("step process never got ready")
	}
	return done
}

// TestStepTasks runs real tasks through the step process: their output,
// grouped exits, a command that cannot be executed, srun's input, and
// output files named by patterns.
func TestStepTasks(t *testing.T) {
	iso := isolator(t)
	tests := map[string]struct {
		step       api.StepCreateRequest
		tasks      []int
		stdin      string
		want       stepOutcome
		wantFiles  map[string]string
		checkFiles bool
	}{
		"output and exits grouped by status": {
			step:  api.StepCreateRequest{Argv: []string{"sh", "-c", `echo out $SLURM_PROCID; echo err >&2; exit $((SLURM_LOCALID % 2 + 2))`}},
			tasks: []int{4, 5, 6},
			want: stepOutcome{Hello: true, Done: true, Stdout: map[uint32]string{4: "out 4\n", 5: "out 5\n", 6: "out 6\n"},
				Stderr: map[uint32]string{4: "err\n", 5: "err\n", 6: "err\n"},
				Exits:  map[int]job.ExitCode{4: {Status: 2}, 5: {Status: 3}, 6: {Status: 2}}},
		},
		"a command that is not there exits 2 with slurmstepd's line": {
			step:  api.StepCreateRequest{Argv: []string{"/no/such/cmd"}},
			tasks: []int{0},
			want: stepOutcome{Hello: true, Done: true, Stdout: map[uint32]string{},
				Stderr: map[uint32]string{0: "slurmstepd-n1: error: execve(): /no/such/cmd: No such file or directory\n"},
				Exits:  map[int]job.ExitCode{0: {Status: 2}}},
		},
		"srun's input goes to every task": {
			step: api.StepCreateRequest{Argv: []string{"cat"}}, tasks: []int{0, 1}, stdin: "hello\n",
			want: stepOutcome{Hello: true, Done: true, Stdout: map[uint32]string{0: "hello\n", 1: "hello\n"}, Stderr: map[uint32]string{},
				Exits: map[int]job.ExitCode{0: {}, 1: {}}},
		},
		"-o with %t writes a file per task, -e defaults to it": {
			step:  api.StepCreateRequest{Argv: []string{"sh", "-c", "echo o$SLURM_PROCID; echo e >&2"}, StdOut: "out-%j.%s-%t-%n-%N", StdIn: "none"},
			tasks: []int{0, 1},
			want: stepOutcome{Hello: true, Done: true, Stdout: map[uint32]string{}, Stderr: map[uint32]string{},
				Exits: map[int]job.ExitCode{0: {}, 1: {}}},
			wantFiles:  map[string]string{"out-1.0-0-0-host1": "o0\ne\n", "out-1.0-1-0-host1": "o1\ne\n"},
			checkFiles: true,
		},
		// As on the peer: slurmstepd opens -o and -e in the task, whose
		// stdio already goes to srun.
		"-o /dev/stderr and -e /dev/stdout swap srun's streams": {
			step:  api.StepCreateRequest{Argv: []string{"sh", "-c", "echo o; echo e >&2"}, StdOut: "/dev/stderr", StdErr: "/dev/stdout", StdIn: "none"},
			tasks: []int{0},
			want: stepOutcome{Hello: true, Done: true, Stdout: map[uint32]string{0: "e\n"}, Stderr: map[uint32]string{0: "o\n"},
				Exits: map[int]job.ExitCode{0: {}}},
		},
		"-o /dev/stdout alone takes stderr too": {
			step:  api.StepCreateRequest{Argv: []string{"sh", "-c", "echo o; echo e >&2"}, StdOut: "/dev/stdout", StdIn: "none"},
			tasks: []int{0},
			want: stepOutcome{Hello: true, Done: true, Stdout: map[uint32]string{0: "o\ne\n"}, Stderr: map[uint32]string{},
				Exits: map[int]job.ExitCode{0: {}}},
		},
		"-l labels the lines in -o and -e files": {
			step: api.StepCreateRequest{Argv: []string{"sh", "-c", "echo o$SLURM_PROCID; printf e >&2"}, StdOut: "lo-%t", StdErr: "le-%t",
				StdIn: "none", Environment: []string{"SLURM_LABELIO=1"}},
			tasks: []int{0, 1},
			want: stepOutcome{Hello: true, Done: true, Stdout: map[uint32]string{}, Stderr: map[uint32]string{},
				Exits: map[int]job.ExitCode{0: {}, 1: {}}},
			wantFiles:  map[string]string{"lo-0": "0: o0\n", "lo-1": "1: o1\n", "le-0": "0: e\n", "le-1": "1: e\n"},
			checkFiles: true,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			srun := newFakeSrun(t)
			go srun.serve()
			dir := stepFixture(t, srun, &tc.step, tc.tasks)
			done := runFixture(t, iso, dir)
			got := srun.collect(func(fr api.StepIOFrame) {
				if fr.Kind == api.IOHello && tc.step.StdIn == "" {
					srun.send(api.IOStdin, api.AllTasks, []byte(tc.stdin))
					srun.send(api.IOStdinEOF, api.AllTasks, nil)
				}
			})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("what srun heard (-want +got):\n%s", diff)
			}
			if code := <-done; code != 0 {
				t.Errorf("step process exit status %d", code)
			}
			if tc.checkFiles {
				for file, want := range tc.wantFiles {
					data, err := os.ReadFile(filepath.Join(tc.step.WorkDir, file))
					if err != nil || string(data) != want {
						t.Errorf("%s: %q, %v; want %q", file, data, err, want)
					}
				}
			}
		})
	}
}

// TestStepTerminate: srun's terminate order ends running tasks with
// slurmstepd's line and SIGTERM (SIGKILL at once when srun aborts the
// step); losing srun ends them too.
func TestStepTerminate(t *testing.T) {
	iso := isolator(t)
	for name, tc := range map[string]struct {
		byOrder bool
		sig     syscall.Signal // sent with the order; the tasks' death
	}{
		"terminate order":     {byOrder: true, sig: syscall.SIGTERM},
		"abort: kill at once": {byOrder: true, sig: syscall.SIGKILL},
		"srun goes away":      {},
	} {
		byOrder := tc.byOrder
		t.Run(name, func(t *testing.T) {
			srun := newFakeSrun(t)
			go srun.serve()
			dir := stepFixture(t, srun, &api.StepCreateRequest{Argv: []string{"sleep", "30"}, StdIn: "none"}, []int{0})
			start := time.Now()
			done := runFixture(t, iso, dir)
			got := srun.collect(func(fr api.StepIOFrame) {
				if fr.Kind != api.IOHello {
					return
				}
				if byOrder {
					order := uint32(0)
					if tc.sig == syscall.SIGKILL {
						order = uint32(syscall.SIGKILL)
					}
					srun.send(api.IOTerminate, order, nil)
				} else {
					srun.conn.(*net.TCPConn).CloseWrite()
				}
			})
			if byOrder {
				if got.Exits[0] != (job.ExitCode{Signal: int(tc.sig)}) {
					t.Errorf("exits %+v, want task 0 killed by %v", got.Exits, tc.sig)
				}
				if !strings.Contains(got.Stderr[0], "slurmstepd-n1: error: *** STEP 1.0 ON n1 CANCELLED AT ") {
					t.Errorf("stderr %q lacks the cancel line", got.Stderr[0])
				}
			}
			<-done
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("the step took %s to end", took)
			}
		})
	}
}

// TestGroupExits: tasks that ended alike share one report, in the order
// their statuses first occur.
func TestGroupExits(t *testing.T) {
	mk := func(id int, e job.ExitCode, core bool) *task { return &task{global: id, exit: e, core: core} }
	batch := []*task{mk(3, job.ExitCode{Status: 1}, false), mk(0, job.ExitCode{}, false), mk(1, job.ExitCode{Status: 1}, false),
		mk(2, job.ExitCode{Signal: 11}, true), mk(4, job.ExitCode{Signal: 11}, false)}
	want := []*api.StepIOExit{{Tasks: []int{3, 1}, ExitCode: job.ExitCode{Status: 1}}, {Tasks: []int{0}},
		{Tasks: []int{2}, ExitCode: job.ExitCode{Signal: 11}, CoreDumped: true}, {Tasks: []int{4}, ExitCode: job.ExitCode{Signal: 11}}}
	if diff := cmp.Diff(want, groupExits(batch)); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
}

// TestStepTimeLimit: a step with srun -t ends at its limit as the peer's
// slurmstepd ends it: the cancel line says why, its tasks get SIGTERM.
func TestStepTimeLimit(t *testing.T) {
	iso := isolator(t)
	srun := newFakeSrun(t)
	go srun.serve()
	dir := stepFixture(t, srun, &api.StepCreateRequest{Argv: []string{"sleep", "30"}, StdIn: "none", TimeLimit: 1}, []int{0})
	done := runFixture(t, iso, dir)
	got := srun.collect(func(api.StepIOFrame) {})
	if got.Exits[0] != (job.ExitCode{Signal: int(syscall.SIGTERM)}) {
		t.Errorf("exits %+v, want task 0 killed by SIGTERM", got.Exits)
	}
	if !strings.Contains(got.Stderr[0], "slurmstepd-n1: error: *** STEP 1.0 ON n1 CANCELLED AT ") ||
		!strings.HasSuffix(got.Stderr[0], " DUE TO TIME LIMIT ***\n") {
		t.Errorf("stderr %q lacks the time limit's cancel line", got.Stderr[0])
	}
	<-done
}
