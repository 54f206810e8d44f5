//go:build integration

package test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// withLimits runs bin/name in dir from a shell that first sets the soft
// limits (ulimit -S ARGS), as a user's login shell would.
func (s *srunCluster) withLimits(t *testing.T, dir, ulimits, name string, args ...string) cmdRun {
	t.Helper()
	script := ulimits + ` && exec "$0" "$@"`
	cmd := exec.Command("/bin/sh", append([]string{"-c", script, filepath.Join(s.bin, name)}, args...)...)
	cmd.Dir, cmd.Env = dir, s.env("PWD="+dir)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := cmdRun{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return r
}

// TestRLimitsLive: a batch job runs with its submitter's soft stack,
// open-files and core limits (PropagateResourceLimits=ALL, the default)
// and never sees the SLURM_RLIMIT_* variables, as on the peer
// (`ulimit -S -s 16384; ulimit -S -n 1000; ulimit -S -c 0; sbatch`
// prints 16384, 1000, 0); --propagate=STACK carries the stack alone;
// srun's tasks get srun's limits.
func TestRLimitsLive(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1})
	dir := sharedDir(t)
	script := "#!/bin/sh\nulimit -Ss; ulimit -Sn; ulimit -Sc; env | grep -c '^SLURM_RLIMIT_' || true\n"
	if err := os.WriteFile(filepath.Join(dir, "job.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	limits := "ulimit -S -s 16384 && ulimit -S -n 1000 && ulimit -S -c 0"
	submit := func(args ...string) uint32 {
		r := s.withLimits(t, dir, limits, "sbatch", append([]string{"--parsable"}, append(args, "job.sh")...)...)
		var id uint32
		if _, err := fmt.Sscan(r.stdout, &id); err != nil || r.code != 0 {
			t.Fatalf("sbatch: exit %d %q %q", r.code, r.stdout, r.stderr)
		}
		return id
	}
	all, stack := submit(), submit("--propagate=STACK")
	for _, id := range []uint32{all, stack} {
		s.waitJob(t, id, job.Completed, 30*time.Second)
	}
	read := func(id uint32) []string {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("slurm-%d.out", id)))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Fields(string(data))
	}
	if got, want := strings.Join(read(all), " "), "16384 1000 0 0"; got != want {
		t.Errorf("job with the default: stack, nofile, core, SLURM_RLIMIT_* count = %q, want %q", got, want)
	}
	got := read(stack)
	if len(got) != 4 || got[0] != "16384" || got[1] == "1000" || got[3] != "0" {
		t.Errorf("job with --propagate=STACK saw %q, want stack 16384 and the node's open files", got)
	}
	r := s.withLimits(t, dir, "ulimit -S -s 12288 && ulimit -S -n 900", "srun", "-N1", "sh", "-c", "ulimit -Ss; ulimit -Sn")
	if got, want := strings.Fields(r.stdout), []string{"12288", "900"}; r.code != 0 || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("srun task: exit %d, limits %q (stderr %q), want %q", r.code, got, r.stderr, want)
	}
}

// TestRLimitsExceptLive: PropagateResourceLimitsExcept=NOFILE carries every
// limit but the open files (the peer, with MEMLOCK,NOFILE: stack 16384,
// open files the node's); --propagate=NOFILE asks for it anyway.
func TestRLimitsExceptLive(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, Extra: "PropagateResourceLimitsExcept=NOFILE"})
	dir := sharedDir(t)
	task := []string{"-N1", "sh", "-c", "echo $(ulimit -Ss) $(ulimit -Sn)"}
	limits := "ulimit -S -s 12288 && ulimit -S -n 900"
	r := s.withLimits(t, dir, limits, "srun", task...)
	got := strings.Fields(r.stdout)
	if r.code != 0 || len(got) != 2 || got[0] != "12288" || got[1] == "900" {
		t.Errorf("srun under the Except list: exit %d, %q (stderr %q), want stack 12288 and the node's open files", r.code, got, r.stderr)
	}
	r = s.withLimits(t, dir, limits, "srun", append([]string{"--propagate=NOFILE"}, task...)...)
	if got := strings.Fields(r.stdout); r.code != 0 || len(got) != 2 || got[1] != "900" || got[0] == "12288" {
		t.Errorf("srun --propagate=NOFILE: exit %d, %q (stderr %q), want open files 900 and the node's stack", r.code, got, r.stderr)
	}
}
