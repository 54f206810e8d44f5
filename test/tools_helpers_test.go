//go:build integration

package test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
