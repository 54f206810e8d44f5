package nodeprolog

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// script writes an executable shell script named name in dir.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGlobRunsInReverseOrderAndStopsAtFailure(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	d := filepath.Join(dir, "prolog.d")
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	script(t, d, "10-a", "echo a >>"+log)
	script(t, d, "20-b", "echo b >>"+log+"; exit 7")
	script(t, d, "30-c", "echo c >>"+log)
	f := Run(context.Background(), Spec{Path: d + "/*"}, nil)
	if f == nil || f.Script != filepath.Join(d, "20-b") || f.ExitCode() != 7 {
		t.Fatalf("Run = %v, want 20-b's exit status 7", f)
	}
	got, _ := os.ReadFile(log)
	// As the peer's slurmd: the last match first; 10-a never runs.
	if diff := cmp.Diff("c\nb\n", string(got)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestFailures(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "plain")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		spec    Spec
		wantErr string
		timeout bool
		code    int
	}{
		"no script configured":          {Spec{}, "", false, 0},
		"a success":                     {Spec{Path: script(t, dir, "ok", "exit 0")}, "", false, 0},
		"a non-zero exit":               {Spec{Path: script(t, dir, "three", "exit 3")}, "exit status 3", false, 3},
		"a missing script":              {Spec{Path: filepath.Join(dir, "missing.sh")}, "unable to create list of paths", false, 0},
		"a glob without match":          {Spec{Path: filepath.Join(dir, "none.d/*")}, "unable to create list of paths", false, 0},
		"a script not executable":       {Spec{Path: notExec}, "permission denied", false, 0},
		"killed by a signal":            {Spec{Path: script(t, dir, "kill", "kill -9 $$")}, "killed by signal 9", false, 9},
		"killed at PrologEpilogTimeout": {Spec{Path: script(t, dir, "slow", "sleep 30"), Timeout: 100 * time.Millisecond}, "timed out", true, 9},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := Run(context.Background(), tc.spec, nil)
			if tc.wantErr == "" {
				if f != nil {
					t.Fatalf("Run = %v, want success", f)
				}
				return
			}
			if f == nil || !strings.Contains(f.Error(), tc.wantErr) {
				t.Fatalf("Run = %v, want an error with %q", f, tc.wantErr)
			}
			if f.TimedOut != tc.timeout || f.ExitCode() != tc.code {
				t.Errorf("TimedOut, ExitCode = %v, %d; want %v, %d", f.TimedOut, f.ExitCode(), tc.timeout, tc.code)
			}
		})
	}
}

func TestTimeoutKillsTheProcessGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child")
	// The child ignores nothing but outlives its parent's exit unless the
	// whole group is killed; it holds the output pipe too.
	p := script(t, dir, "forks", "sleep 60 & echo $! >"+pidFile+"; wait")
	start := time.Now()
	f := Run(context.Background(), Spec{Path: p, Timeout: 200 * time.Millisecond}, nil)
	if f == nil || !f.TimedOut {
		t.Fatalf("Run = %v, want a timeout", f)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Run took %v: the output pipe held by the child kept it", d)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	// Killed: it is gone or a zombie its parent (init) has yet to reap.
	for range 100 {
		if err := syscall.Kill(pid, 0); err != nil || zombie(pid) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("the script's child %d outlived the timeout", pid)
}

func zombie(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] == 'Z'
}

func TestOutputIsDrainedAndCapped(t *testing.T) {
	dir := t.TempDir()
	// 1 MiB: more than any pipe buffer; the script must not block.
	p := script(t, dir, "loud", "head -c 1048576 /dev/zero | tr '\\0' x; echo err >&2; exit 1")
	f := Run(context.Background(), Spec{Path: p, Timeout: 20 * time.Second}, nil)
	if f == nil || f.TimedOut || f.ExitCode() != 1 {
		t.Fatalf("Run = %v, want exit status 1", f)
	}
	if len(f.Output) != outputKept {
		t.Errorf("kept %d bytes of output, want %d", len(f.Output), outputKept)
	}
}

func TestEnvironmentIsOnlyWhatIsGiven(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "env")
	p := script(t, dir, "env", "/usr/bin/env >"+out+"; [ ! -t 0 ] && read x; [ -z \"$x\" ]")
	if f := Run(context.Background(), Spec{Path: p}, []string{"SLURM_JOB_ID=7"}); f != nil {
		t.Fatalf("Run = %v (standard input must be /dev/null)", f)
	}
	b, _ := os.ReadFile(out)
	for _, kv := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(kv, "PATH=") || strings.HasPrefix(kv, "HOME=") {
			t.Errorf("the daemon's %s leaked into the script", kv)
		}
	}
	if !strings.Contains(string(b), "SLURM_JOB_ID=7") {
		t.Errorf("environment %q lacks SLURM_JOB_ID=7", b)
	}
}

func TestSerialRunsOneAtATime(t *testing.T) {
	dir := t.TempDir()
	lock := filepath.Join(dir, "lock")
	log := filepath.Join(dir, "log")
	// Each run notes its start and end; with the lock they never overlap.
	p := script(t, dir, "s", "echo start >>"+log+"; sleep 0.2; echo end >>"+log)
	spec := Spec{Path: p, SerialLock: lock}
	done := make(chan *Failure, 3)
	for range 3 {
		go func() { done <- Run(context.Background(), spec, nil) }()
	}
	for range 3 {
		if f := <-done; f != nil {
			t.Fatal(f)
		}
	}
	b, _ := os.ReadFile(log)
	want := strings.Repeat("start\nend\n", 3)
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("runs overlapped (-want +got):\n%s", diff)
	}
}
