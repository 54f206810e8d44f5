//go:build integration

package test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// srunCluster is a real loam-ctld with real emulated node daemons.
type srunCluster struct {
	c   *clustertest.Cluster
	d   *clustertest.Ctld
	bin string
}

// startSrunCluster starts the controller and every node of spec and waits
// until all nodes are up.
func startSrunCluster(t *testing.T, spec clustertest.Spec) *srunCluster {
	t.Helper()
	nodedBin(t)
	t.Cleanup(cleanCgroups)
	c := clustertest.New(t, spec)
	d := c.StartCtld(t)
	for i := 0; i < spec.Nodes; i++ {
		realNoded(t, c, i)
	}
	cl := d.Client()
	clustertest.Eventually(t, nodedWait, "nodes up", func() error {
		resp, err := cl.Nodes(context.Background(), &api.NodeQuery{})
		if err != nil {
			return err
		}
		up := 0
		for _, n := range resp.Nodes {
			if strings.Contains(n.State, "IDLE") || strings.Contains(n.State, "MIXED") || strings.Contains(n.State, "ALLOCATED") {
				up++
			}
		}
		if up < spec.Nodes {
			return fmt.Errorf("%d of %d nodes up", up, spec.Nodes)
		}
		return nil
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("controller log:\n%s", d.Log())
		}
	})
	return &srunCluster{c: c, d: d, bin: clustertest.Bin(t)}
}

// env is the environment the user commands run with: the cluster's
// configuration and bin/ first on PATH (jobs inherit both).
func (s *srunCluster) env(extra ...string) []string {
	env := []string{"LOAM_CONF=" + s.c.ConfPath, "PATH=" + s.bin + ":/usr/local/bin:/usr/bin:/bin", "HOME=/root", "LANG=C.UTF-8"}
	return append(env, extra...)
}

// cmdRun is one run of a user command.
type cmdRun struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

// run runs bin/name in dir; cred, when set, runs it as that user.
func (s *srunCluster) run(t *testing.T, dir string, cred *syscall.Credential, stdin string, env []string, name string, args ...string) cmdRun {
	t.Helper()
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir, cmd.Env = dir, append(s.env("PWD="+dir), env...)
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := cmdRun{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return r
}

// sbatch submits a script from dir and returns the job id.
func (s *srunCluster) sbatch(t *testing.T, dir, script string, env []string, args ...string) uint32 {
	t.Helper()
	path := filepath.Join(dir, "job.sh")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := s.run(t, dir, nil, "", env, "sbatch", append(append([]string{"--parsable"}, args...), path)...)
	var id uint32
	if _, err := fmt.Sscan(r.stdout, &id); err != nil || r.code != 0 {
		t.Fatalf("sbatch: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	return id
}

// waitJob waits for job id to reach state and returns its record.
func (s *srunCluster) waitJob(t *testing.T, id uint32, want job.State, within time.Duration) api.Job {
	t.Helper()
	cl := s.d.Client()
	var j api.Job
	clustertest.Eventually(t, within, fmt.Sprintf("job %d %s", id, want), func() error {
		var err error
		if j, err = clustertest.JobState(cl, id); err != nil {
			return err
		}
		if j.JobState != want {
			return fmt.Errorf("state %s reason %s", j.JobState, j.StateReason)
		}
		return nil
	})
	return j
}

// readEnv reads a file of "env" output into a map.
func readEnv(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			out[k] = v
		}
	}
	return out
}

// sharedDir is a fresh directory every test user can write to.
func sharedDir(t *testing.T) string {
	t.Helper()
	d := t.TempDir()
	if err := os.Chmod(d, 0o777); err != nil {
		t.Fatal(err)
	}
	// t.TempDir's parent is private to root; let the users through.
	if err := os.Chmod(filepath.Dir(d), 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}
