package supervisor

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/noded/spool"
)

// writeProg writes an executable shell script anyone may run.
func writeProg(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "prog.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunTaskProlog: the peer's behaviour with TaskProlog set. Its print
// lines reach the job's output, its exports the script's environment;
// a failing prolog leaves the environment alone and writes slurmstepd's
// line ("slurmstepd-cpu002: error: TaskProlog failed status=3").
func TestRunTaskProlog(t *testing.T) {
	needRoot(t)
	type result struct {
		Env    []string
		Failed bool
		Status int
		Out    string
		Err    string
	}
	base := []string{"PATH=/usr/bin:/bin", "TP_GONE=1", "SLURM_JOB_ID=7"}
	tests := map[string]struct {
		body string
		want result
	}{
		"exports, unsets and prints": {
			body: `echo "export TP_VAR=hello world"; echo "unset TP_GONE"; echo "print printed by prolog"; echo junk` + "\n",
			want: result{Env: []string{"PATH=/usr/bin:/bin", "SLURM_JOB_ID=7", "TP_VAR=hello world"}, Out: "printed by prolog\n"},
		},
		"runs as the job's user in the task's environment": {
			body: `echo "export WHO=$(id -u):$SLURM_JOB_ID:$SLURM_SCRIPT_CONTEXT"` + "\n",
			want: result{Env: append(append([]string{}, base...), "WHO=65534:7:prolog_task")},
		},
		"a failure keeps what it printed and says so": {
			body: "echo 'print printed by prolog'; echo 'export A=1'; echo oops >&2; exit 3\n",
			want: result{Env: base, Failed: true, Status: 3, Out: "printed by prolog\n",
				Err: "oops\nslurmstepd-cpu002: error: TaskProlog failed status=3\n"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := userDir(t, nobody)
			files := stdio{}
			var err error
			if files.out, err = os.Create(filepath.Join(dir, "out")); err != nil {
				t.Fatal(err)
			}
			if files.err, err = os.Create(filepath.Join(dir, "err")); err != nil {
				t.Fatal(err)
			}
			defer files.out.Close()
			defer files.err.Close()
			s := &Supervisor{launch: *launchFor(dir, nil), log: NewLogger(t.Output())}
			s.launch.Node, s.launch.TaskProlog = "cpu002", writeProg(t, tc.body)
			r := s.runTaskProlog(base, files, nobody)
			out, _ := os.ReadFile(filepath.Join(dir, "out"))
			errText, _ := os.ReadFile(filepath.Join(dir, "err"))
			got := result{Env: r.env, Failed: r.failed, Status: r.status, Out: string(out), Err: string(errText)}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunTaskPrologUnsetChangesNothing(t *testing.T) {
	s := &Supervisor{launch: spool.Launch{}, log: NewLogger(t.Output())}
	env := []string{"A=1"}
	r := s.runTaskProlog(env, stdio{}, nobody)
	if diff := cmp.Diff(taskPrologResult{env: env}, r, cmp.AllowUnexported(taskPrologResult{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestRunTaskScriptTimeout: a script that never ends, and a child it
// left holding the output pipe, are killed at the timeout.
func TestRunTaskScriptTimeout(t *testing.T) {
	needRoot(t)
	p := writeProg(t, "echo 'export A=1'; sleep 300 & sleep 300\n")
	start := time.Now()
	out, status, err := runTaskScript(p, nil, "/tmp", nil, nobody, 200*time.Millisecond)
	if err == nil || status == 0 {
		t.Fatalf("status %d, error %v: want a timeout", status, err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %s to give up", took)
	}
	if string(out) != "export A=1\n" {
		t.Errorf("output %q, want what it wrote before the timeout", out)
	}
}

func TestFailedPrologArgvEndsWithTheStatus(t *testing.T) {
	want := []string{"/bin/sh", "-c", "exit 3"}
	if diff := cmp.Diff(want, failedPrologArgv(3)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestRunTaskPrologLacksUmask: the prolog sees the script's environment,
// from which slurmstepd leaves SLURM_UMASK out (the peer's TaskProlog has
// none), while the task keeps it for its umask.
func TestRunTaskPrologLacksUmask(t *testing.T) {
	needRoot(t)
	dir := userDir(t, nobody)
	out, err := os.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	s := &Supervisor{launch: *launchFor(dir, nil), log: NewLogger(t.Output())}
	s.launch.TaskProlog = writeProg(t, `echo "export SEEN=${SLURM_UMASK-unset}"`+"\n")
	r := s.runTaskProlog([]string{"SLURM_UMASK=0077"}, stdio{out: out, err: out}, nobody)
	if diff := cmp.Diff([]string{"SLURM_UMASK=0077", "SEEN=unset"}, r.env); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
