package command

import (
	"context"
	"os"
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
