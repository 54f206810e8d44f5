//go:build integration

package test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// daemon is a loam-noded process of a clustertest cluster.
type daemon struct {
	cmd  *exec.Cmd
	done chan struct{}
}

// kill9 kills the daemon and waits until it is gone (its port is free).
func (d *daemon) kill9() {
	_ = d.cmd.Process.Kill()
	<-d.done
}

// realNoded starts bin/loam-noded for node i of a clustertest cluster.
func realNoded(t *testing.T, c *clustertest.Cluster, i int) *daemon {
	t.Helper()
	name := clustertest.NodeName(i)
	logf, err := os.OpenFile(filepath.Join(c.Dir, name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	cmd := exec.Command(nodedBin(t), "-N", name, "-f", c.ConfPath, "--emulate", "--cgroup-root", cgroupRoot(c.Dir, name), "--log-format", "text")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-done
		killLeftovers(c.Dir)
		if t.Failed() {
			data, _ := os.ReadFile(logf.Name())
			t.Logf("%s log:\n%s", name, data)
		}
	})
	return &daemon{cmd: cmd, done: done}
}

// waitState waits for job id to reach state.
func waitState(t *testing.T, d *clustertest.Ctld, id uint32, want job.State) {
	t.Helper()
	cl := d.Client()
	defer func() {
		if t.Failed() {
			t.Logf("controller log:\n%s", d.Log())
		}
	}()
	clustertest.Eventually(t, nodedWait, fmt.Sprintf("job %d %s", id, want), func() error {
		j, err := clustertest.JobState(cl, id)
		if err != nil {
			return err
		}
		if j.JobState != want {
			return fmt.Errorf("state %s reason %s", j.JobState, j.StateReason)
		}
		return nil
	})
}

// TestNodedWithController runs jobs through the real loam-ctld and
// loam-noded: one completes, one fails with its exit code, one is killed
// by its memory limit, and one outlives a kill -9 of its node daemon and
// is accounted once.
func TestNodedWithController(t *testing.T) {
	nodedBin(t)
	t.Cleanup(cleanCgroups)
	c := clustertest.New(t, clustertest.Spec{Nodes: 1, GPUs: 2})
	d := c.StartCtld(t)
	noded := realNoded(t, c, 0)
	cl := d.Client()
	work := t.TempDir()
	submit := func(script string, mods ...func(*job.Request)) uint32 {
		return clustertest.Submit(t, cl, clustertest.Job(append([]func(*job.Request){func(r *job.Request) {
			r.Script, r.WorkDir = "#!/bin/bash\n"+script+"\n", work
		}}, mods...)...))
	}
	mem := int64(64)

	ok := submit("echo fine")
	waitState(t, d, ok, job.Completed)
	fails := submit("exit 3")
	waitState(t, d, fails, job.Failed)
	if j, _ := clustertest.JobState(cl, fails); j.ExitCode != (job.ExitCode{Status: 3}) {
		t.Errorf("failed job exit code %q, want 3:0", j.ExitCode)
	}
	hog := submit(`perl -e '$x = "a" x (400*1024*1024)'`, func(r *job.Request) { r.MemPerNode = &mem })
	waitState(t, d, hog, job.OutOfMemory)

	gate, running := filepath.Join(work, "gate"), filepath.Join(work, "running")
	long := submit("touch " + running + "; while [ ! -e " + gate + " ]; do sleep 0.05; done; echo survived")
	waitForFile(t, running)
	noded.kill9()
	touch(t, gate)
	realNoded(t, c, 0)
	waitState(t, d, long, job.Completed)
	if t.Failed() {
		t.Logf("controller log:\n%s", d.Log())
	}
	out, err := os.ReadFile(filepath.Join(work, fmt.Sprintf("slurm-%d.out", long)))
	if err != nil || string(out) != "survived\n" {
		t.Errorf("output of the job that outlived its daemon: %q, %v", out, err)
	}
}
