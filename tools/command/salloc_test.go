package command

import (
	"context"
	"io"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSallocOptions: salloc's own options, with what the peer's salloc
// printed for each (jobs renumbered 7).
func TestSallocOptions(t *testing.T) {
	ready := api.Allocation{JobID: 7, State: job.Running, Ready: true, Name: "interactive", Partition: "normal",
		ClusterName: "c", NodeList: "n01", Nodes: []api.NodeAllocation{{Node: "n01", CPUs: 1}}, TasksPerNode: []int{1}}
	pending := api.Allocation{JobID: 7, State: job.Pending}
	tests := map[string]struct {
		args        []string
		waits       []api.Allocation
		dirs        []string
		wantCode    int
		wantStderr  string
		wantDir     string // where the command ran; "" when it did not
		wantAlloc   bool
		wantRelease bool
	}{
		"verbose and quiet": {args: []string{"-v", "-Q", "true"}, wantCode: 1,
			wantStderr: "salloc: error: don't specify both --verbose (-v) and --quiet (-Q)\n"},
		"quiet hides the allocation's lines": {args: []string{"-Q", "true"}, waits: []api.Allocation{ready},
			wantDir: "/home/alice/work", wantAlloc: true, wantRelease: true},
		"no shell leaves the allocation": {args: []string{"--no-shell"}, waits: []api.Allocation{ready},
			wantStderr: "salloc: Granted job allocation 7\n", wantAlloc: true},
		"a missing -D directory": {args: []string{"-D", "/nonexistent", "pwd"}, wantCode: 1,
			wantStderr: "salloc: error: chdir(/nonexistent): No such file or directory\n"},
		"a relative -D directory": {args: []string{"-D", "rel", "pwd"}, wantCode: 1,
			wantStderr: "salloc: error: chdir(/home/alice/work/rel): No such file or directory\n"},
		"the command runs in the -D directory": {args: []string{"-D", "/tmp", "pwd"}, dirs: []string{"/tmp"},
			waits: []api.Allocation{ready}, wantDir: "/tmp", wantAlloc: true, wantRelease: true,
			wantStderr: "salloc: Granted job allocation 7\nsalloc: Relinquishing job allocation 7\n"},
		"a held job": {args: []string{"-H", "true"}, waits: []api.Allocation{ready},
			wantDir: "/home/alice/work", wantAlloc: true, wantRelease: true,
			wantStderr: "salloc: Job is in held state, pending scheduler release\n" +
				"salloc: Granted job allocation 7\nsalloc: Relinquishing job allocation 7\n"},
		"immediate and granted": {args: []string{"-I", "true"}, waits: []api.Allocation{ready},
			wantDir: "/home/alice/work", wantAlloc: true, wantRelease: true,
			wantStderr: "salloc: Granted job allocation 7\nsalloc: Relinquishing job allocation 7\n"},
		"immediate and busy": {args: []string{"--immediate", "true"}, waits: []api.Allocation{pending}, wantCode: 1,
			wantAlloc: true, wantRelease: true,
			wantStderr: "salloc: error: Unable to allocate resources: Requested nodes are busy\n" +
				"salloc: Job allocation 7 has been revoked.\n"},
		"immediate within seconds, timed out": {args: []string{"-I2", "true"}, waits: []api.Allocation{pending},
			wantCode: 1, wantAlloc: true, wantRelease: true,
			wantStderr: "salloc: Pending job allocation 7\nsalloc: job 7 queued and waiting for resources\n" +
				"salloc: Job allocation 7 has been revoked.\n" +
				"salloc: error: Unable to allocate resources: Connection timed out\n"},
		"immediate within seconds, granted": {args: []string{"--immediate=2", "true"}, waits: []api.Allocation{pending, ready},
			wantDir: "/home/alice/work", wantAlloc: true, wantRelease: true,
			wantStderr: "salloc: Pending job allocation 7\nsalloc: job 7 queued and waiting for resources\n" +
				"salloc: job 7 has been allocated resources\n" +
				"salloc: Granted job allocation 7\nsalloc: Relinquishing job allocation 7\n"},
		"cancelled while pending": {args: []string{"true"}, waits: []api.Allocation{pending, {JobID: 7, Ended: true}},
			wantCode: 1, wantAlloc: true,
			wantStderr: "salloc: Pending job allocation 7\nsalloc: job 7 queued and waiting for resources\n" +
				"salloc: Job allocation 7 has been revoked.\nsalloc: Job has been cancelled\n" +
				"salloc: error: Job submit/allocate failed: Job/step already completing or completed\n"},
		"immediate and held": {args: []string{"-I", "-H", "true"}, wantCode: 1, wantAlloc: true, wantRelease: true,
			wantStderr: "salloc: error: Job submit/allocate failed: Job dependency problem\n" +
				"salloc: Job allocation 7 has been revoked.\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeSteps{fakeController: &fakeController{}, t: t, waits: tc.waits}
			te := newTestEnv(f.fakeController, 1_800_000_000)
			for _, d := range tc.dirs {
				te.files[d] = nil
			}
			te.Dial = func(context.Context) (Controller, error) { return f, nil }
			ranIn := ""
			h := stepHooks{notify: func(chan<- os.Signal) func() { return func() {} },
				runLocal: func(_, _ []string, dir string, _ <-chan os.Signal) job.ExitCode {
					ranIn = dir
					return job.ExitCode{}
				}}
			code := runSalloc(context.Background(), te.Env, tc.args, h)
			if code != tc.wantCode {
				t.Errorf("exit status %d, want %d", code, tc.wantCode)
			}
			if diff := cmp.Diff(tc.wantStderr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if ranIn != tc.wantDir {
				t.Errorf("command ran in %q, want %q", ranIn, tc.wantDir)
			}
			if got := len(f.allocs) > 0; got != tc.wantAlloc {
				t.Errorf("allocated %v, want %v", got, tc.wantAlloc)
			}
			if got := len(f.released) > 0; got != tc.wantRelease {
				t.Errorf("released %v, want %v", got, tc.wantRelease)
			}
		})
	}
}

// TestLevelFilter: salloc -Q keeps errors, warnings and fatal errors, and
// lines that are not salloc's.
func TestLevelFilter(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"info is dropped":          {in: "salloc: Granted job allocation 7\n", want: ""},
		"an error is kept":         {in: "salloc: error: boom\n", want: "salloc: error: boom\n"},
		"a warning is kept":        {in: "salloc: warning: Loam ignores --gid\n", want: "salloc: warning: Loam ignores --gid\n"},
		"several lines in a write": {in: "salloc: Pending job allocation 7\nsalloc: error: x\nother\n", want: "salloc: error: x\nother\n"},
	}
	for name, tc := range tests {
		var got bytesBuffer
		f := &levelFilter{w: &got, prog: "salloc: "}
		if n, err := f.Write([]byte(tc.in)); err != nil || n != len(tc.in) {
			t.Errorf("%s: Write = %d, %v", name, n, err)
		}
		if diff := cmp.Diff(tc.want, got.String()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

type bytesBuffer struct{ b []byte }

func (w *bytesBuffer) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }
func (w *bytesBuffer) String() string              { return string(w.b) }

// TestSallocOptionVariables: the command sees the variables the options
// give, as the peer's salloc -c2 --ntasks-per-node=2 shell saw them.
func TestSallocOptionVariables(t *testing.T) {
	ready := api.Allocation{JobID: 7, State: job.Running, Ready: true, Name: "interactive", Partition: "normal",
		ClusterName: "c", NodeList: "n01", Nodes: []api.NodeAllocation{{Node: "n01", CPUs: 4}}, TasksPerNode: []int{2}}
	f := &fakeSteps{fakeController: &fakeController{}, t: t, waits: []api.Allocation{ready}}
	te := newTestEnv(f.fakeController, 1_800_000_000)
	te.Dial = func(context.Context) (Controller, error) { return f, nil }
	var got []string
	h := stepHooks{notify: func(chan<- os.Signal) func() { return func() {} },
		runLocal: func(_, env []string, _ string, _ <-chan os.Signal) job.ExitCode {
			for _, kv := range env {
				if strings.HasPrefix(kv, "SLURM_CPUS_PER_TASK=") || strings.HasPrefix(kv, "SLURM_NTASKS_PER_NODE=") {
					got = append(got, kv)
				}
			}
			return job.ExitCode{}
		}}
	if code := runSalloc(context.Background(), te.Env, []string{"-n2", "-c2", "--ntasks-per-node=2", "env"}, h); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	if diff := cmp.Diff([]string{"SLURM_CPUS_PER_TASK=2", "SLURM_NTASKS_PER_NODE=2"}, got); diff != "" {
		t.Errorf("variables (-want +got):\n%s", diff)
	}
}

// endedSteps is fakeSteps whose notice wait answers, once the command
// runs, that the job ended (scancel, time limit).
type endedSteps struct {
	*fakeSteps
	started chan struct{}
}

func (f *endedSteps) WaitNotices(ctx context.Context, _ *api.NoticeWaitRequest) (*api.NoticeWaitResponse, error) {
	select {
	case <-f.started:
		return &api.NoticeWaitResponse{Ended: true}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// signalWriter closes seen once a write holds want.
type signalWriter struct {
	want string
	seen chan struct{}
	once sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

// TestSallocRevokedUnderCommand: the job ends while the command runs:
// salloc says so with the peer's words (after scancel; after the time
// limit), lets the command finish, and relinquishes nothing.
func TestSallocRevokedUnderCommand(t *testing.T) {
	tests := map[string]struct {
		state job.State
		want  string
	}{
		"cancelled": {state: job.Cancelled,
			want: "salloc: Granted job allocation 7\nsalloc: Job allocation 7 has been revoked.\n"},
		"time limit": {state: job.Timeout,
			want: "salloc: Granted job allocation 7\nsalloc: Job 7 has exceeded its time limit and its allocation has been revoked.\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			ready := api.Allocation{JobID: 7, State: job.Running, Ready: true, Name: "interactive", Partition: "normal",
				ClusterName: "c", NodeList: "n01", Nodes: []api.NodeAllocation{{Node: "n01", CPUs: 1}}, TasksPerNode: []int{1}}
			fc := &fakeController{jobs: []api.Job{{JobID: 7, JobState: tc.state}}}
			f := &endedSteps{fakeSteps: &fakeSteps{fakeController: fc, t: t, waits: []api.Allocation{ready}},
				started: make(chan struct{})}
			te := newTestEnv(f.fakeController, 1_800_000_000)
			te.Dial = func(context.Context) (Controller, error) { return f, nil }
			sw := &signalWriter{want: "revoked", seen: make(chan struct{})}
			te.Env.Stderr = io.MultiWriter(te.Env.Stderr, sw)
			h := stepHooks{notify: func(chan<- os.Signal) func() { return func() {} },
				runLocal: func([]string, []string, string, <-chan os.Signal) job.ExitCode {
					close(f.started)
					<-sw.seen
					return job.ExitCode{Status: 3}
				}}
			code := runSalloc(context.Background(), te.Env, []string{"sh"}, h)
			if diff := cmp.Diff(tc.want, te.stderr.String()); code != 3 || diff != "" {
				t.Errorf("exit %d, stderr (-want +got):\n%s", code, diff)
			}
			if len(f.released) != 0 {
				t.Errorf("released %v, want nothing (the job had ended)", f.released)
			}
		})
	}
}
