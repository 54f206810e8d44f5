//go:build integration

package test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// toolRun is one run of a built user command.
type toolRun struct {
	stdout, stderr string
	code           int
}

// runTool runs $LOAM_BIN/name against the cluster (LOAM_CONF) in dir, with
// stdin as standard input.
func runTool(t *testing.T, c *clustertest.Cluster, dir, stdin, name string, args ...string) toolRun {
	t.Helper()
	cmd := exec.Command(filepath.Join(clustertest.Bin(t), name), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LOAM_CONF="+c.ConfPath, "SLURM_TIME_FORMAT=standard", "PWD="+dir)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := toolRun{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return r
}

// mustTool runs a command that must succeed and returns its output.
func mustTool(t *testing.T, c *clustertest.Cluster, dir, name string, args ...string) string {
	t.Helper()
	r := runTool(t, c, dir, "", name, args...)
	if r.code != 0 {
		t.Fatalf("%s %q: exit %d\nstdout: %s\nstderr: %s", name, args, r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// sbatchID runs sbatch --parsable with args in dir and returns the job id;
// the job is cancelled when the test ends.
func sbatchID(t *testing.T, c *clustertest.Cluster, dir string, args ...string) uint32 {
	t.Helper()
	out := mustTool(t, c, dir, "sbatch", append([]string{"--parsable"}, args...)...)
	id, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
	if err != nil {
		t.Fatalf("sbatch %q printed %q", args, out)
	}
	t.Cleanup(func() { runTool(t, c, dir, "", "scancel", fmt.Sprint(id)) })
	return uint32(id)
}

// jobIn waits up to 20 s for job id to be in state want and returns it.
func jobIn(t *testing.T, cl *client.Client, id uint32, want job.State) api.Job {
	t.Helper()
	var got api.Job
	clustertest.Eventually(t, 20*time.Second, fmt.Sprintf("job %d %s", id, want), func() error {
		j, err := clustertest.JobState(cl, id)
		if err != nil {
			return err
		}
		if j.JobState != want {
			return fmt.Errorf("job %d is %s (%s)", id, j.JobState, j.StateReason)
		}
		got = j
		return nil
	})
	return got
}
