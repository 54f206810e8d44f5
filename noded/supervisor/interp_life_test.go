package supervisor

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBatchArgvLife: a batch script whose #! interpreter is missing fails
// as on the Slurm 22.05 peer: the error file gets slurmstepd's line and
// the job exits 2 (ENOENT).
func TestBatchArgvLife(t *testing.T) {
	const peerLine = "slurmstepd-cpu001: error: execve(): bad interpreter(/no/such/interp): No such file or directory"
	tests := map[string]struct {
		script string
		want   []string
	}{
		"bash script runs": {
			script: "#!/bin/sh\necho hi\n",
			want:   []string{"SCRIPT", "a1"}},
		"missing interpreter prints the peer's line and exits 2": {
			script: "#!/no/such/interp\necho hi\n",
			want:   []string{shell, "-c", `printf '%s\n' "$1" >&2; exit 2`, "loam-exec", peerLine}},
		"interpreter arguments stay in the line": {
			script: "#!/no/such/interp -x\n",
			want: []string{shell, "-c", `printf '%s\n' "$1" >&2; exit 2`, "loam-exec",
				"slurmstepd-cpu001: error: execve(): bad interpreter(/no/such/interp -x): No such file or directory"}},
		"no shebang is left to the exec": {
			script: "echo hi\n",
			want:   []string{"SCRIPT", "a1"}},
		"empty shebang is left to the exec": {
			script: "#!\n",
			want:   []string{"SCRIPT", "a1"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "script")
			if err := os.WriteFile(path, []byte(tc.script), 0o500); err != nil {
				t.Fatal(err)
			}
			got := batchArgv(path, tc.script, "cpu001", []string{"a1"})
			if len(got) > 0 && got[0] == path {
				got[0] = "SCRIPT"
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("argv (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBatchArgvLifeRuns: the failing command writes exactly the line and
// exits 2.
func TestBatchArgvLifeRuns(t *testing.T) {
	argv := batchArgv("script", "#!/no/such/interp\n", "n1", nil)
	out, err := runArgv(argv)
	want := "slurmstepd-n1: error: execve(): bad interpreter(/no/such/interp): No such file or directory\n"
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
	if code := exitCodeOf(err); code != 2 {
		t.Errorf("exit code %d, want 2", code)
	}
}

// runArgv runs argv and returns its stderr.
func runArgv(argv []string) (string, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	return stderr.String(), err
}

func exitCodeOf(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestScriptNameLife: the batch script's $0 ends in slurm_script, as on the
// Slurm 22.05 peer, where an error names it
// ("/var/spool/slurm-peer/d/cpu001/job14811/slurm_script: line 2: ...").
func TestScriptNameLife(t *testing.T) {
	s := &Supervisor{dir: t.TempDir()}
	s.launch.Request.Script = "#!/bin/sh\ntrue\n"
	path, err := s.writeScript(Credential{UID: uint32(os.Getuid()), GID: uint32(os.Getgid())})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("slurm_script", filepath.Base(path)); diff != "" {
		t.Errorf("script name (-want +got):\n%s", diff)
	}
}
