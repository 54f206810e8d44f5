//go:build integration

package test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/noded/nodedtest"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestRobustReconfigureBrokenConfig: scontrol reconfigure with a broken
// slurm.conf or gres.conf on a controller running jobs is refused with an
// error naming the file, the line and the problem; the controller keeps
// its old configuration, every job and keeps serving; the repaired file is
// then taken.
func TestRobustReconfigureBrokenConfig(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 2})
	d := c.StartCtld(t)
	c.StartNode(t, d, 0)
	c.StartNode(t, d, 1)
	cl, ctx := d.Client(), context.Background()
	ids := []uint32{
		clustertest.Submit(t, cl, clustertest.Job()),
		clustertest.Submit(t, cl, clustertest.Job()),
		clustertest.Submit(t, cl, clustertest.Job(func(r *job.Request) { r.Hold = true })),
	}
	clustertest.Eventually(t, 20*time.Second, "jobs running", func() error {
		for _, id := range ids[:2] {
			if j, err := clustertest.JobState(cl, id); err != nil || j.JobState != job.Running {
				return errors.New("not yet")
			}
		}
		return nil
	})
	before := jobStates(t, cl, ids)
	orig, err := os.ReadFile(c.ConfPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Count(orig, []byte("\n"))
	line := func(n int) string { return c.ConfPath + ":" + itoa(uint32(lines+n)) }
	gresPath := filepath.Join(filepath.Dir(c.ConfPath), "gres.conf")
	tests := map[string]struct {
		slurm, gres string // appended to slurm.conf; gres.conf's text
		want        []string
	}{
		"an unknown key":           {slurm: "FooBar=1\n", want: []string{line(1) + ": FooBar: unknown key"}},
		"a bad value":              {slurm: "NodeName=n99 CPUs=abc\n", want: []string{line(1) + ": NodeName=n99: CPUs: invalid value"}},
		"a NUL byte":               {slurm: "MaxJobCount=5\x00\n", want: []string{line(1) + ": syntax error: NUL byte"}},
		"a missing include":        {slurm: "Include nothere.conf\n", want: []string{line(1) + ": Include: include failed"}},
		"an unknown node":          {slurm: "PartitionName=bad Nodes=n77\n", want: []string{line(1) + ": PartitionName=bad: Nodes: invalid configuration: unknown nodes n77"}},
		"a node defined twice":     {slurm: "NodeName=n01 CPUs=4\n", want: []string{line(1) + ": NodeName=n01: NodeName: invalid configuration: node n01 already defined"}},
		"several problems at once": {slurm: "FooBar=1\nNodeName=n98 RealMemory=-1\n", want: []string{line(1) + ": FooBar", line(2) + ": NodeName=n98: RealMemory"}},
		"a bad gres.conf":          {gres: "NodeName=n01 Name=gpu Count=abc\n", want: []string{gresPath + ":1: NodeName=n01: Count: invalid value"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(c.ConfPath, append(append([]byte{}, orig...), tc.slurm...), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.gres != "" {
				if err := os.WriteFile(gresPath, []byte(tc.gres), 0o644); err != nil {
					t.Fatal(err)
				}
				defer os.Remove(gresPath)
			}
			_, err := cl.Reconfigure(ctx)
			var ae *api.Error
			if !errors.As(err, &ae) || ae.Code != api.CodeInvalidConfig {
				t.Fatalf("reconfigure = %v, want %s", err, api.CodeInvalidConfig)
			}
			for _, w := range tc.want {
				if !strings.Contains(ae.Detail, w) {
					t.Errorf("error does not say %q:\n%s", w, ae.Detail)
				}
			}
			if got := jobStates(t, cl, ids); got != before {
				t.Errorf("jobs after the refused reconfigure:\n%s\nbefore:\n%s", got, before)
			}
		})
	}
	if err := os.WriteFile(c.ConfPath, append(orig, "PartitionName=more Nodes=n01 State=UP\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Reconfigure(ctx); err != nil {
		t.Fatalf("the repaired file: %v", err)
	}
	if got := jobStates(t, cl, ids); got != before {
		t.Errorf("jobs after the good reconfigure:\n%s\nbefore:\n%s", got, before)
	}
	if d.Pid() == 0 || !strings.Contains(d.Log(), "reconfigured") {
		t.Errorf("no reconfiguration logged:\n%s", d.Log())
	}
}

// jobStates prints each job's id, state and nodes, one a line.
func jobStates(t *testing.T, cl *client.Client, ids []uint32) string {
	t.Helper()
	var b strings.Builder
	for _, id := range ids {
		j, err := clustertest.JobState(cl, id)
		if err != nil {
			t.Fatalf("job %d: %v", id, err)
		}
		b.WriteString(itoa(id) + " " + string(j.JobState) + " " + j.Nodes + "\n")
	}
	return b.String()
}

// TestRobustNodedBadConfig: a node daemon started with a broken
// slurm.conf or gres.conf, or a name its configuration lacks, exits
// non-zero at once with an error naming the file, line and problem, and
// never registers.
func TestRobustNodedBadConfig(t *testing.T) {
	bin := nodedBin(t)
	cl := nodedCluster(t, nodedtest.ClusterSpec{GPUs: 2})
	orig, err := os.ReadFile(cl.ConfPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Count(orig, []byte("\n"))
	gresPath := filepath.Join(cl.Dir, "gres.conf")
	origGres, _ := os.ReadFile(gresPath)
	tests := map[string]struct {
		slurm, gres string
		node        string
		want        string
	}{
		"an unknown key":           {slurm: "FooBar=1\n", want: cl.ConfPath + ":" + itoa(uint32(lines+1)) + ": FooBar: unknown key"},
		"a bad node range":         {slurm: "NodeName=x[2-1] CPUs=1\n", want: cl.ConfPath + ":" + itoa(uint32(lines+1)) + ": NodeName=x[2-1]: NodeName: invalid value"},
		"bytes that are not UTF-8": {slurm: "MaxJobCount=\xff\n", want: cl.ConfPath + ":" + itoa(uint32(lines+1)) + ": syntax error: byte 0xff"},
		"a bad gres.conf":          {gres: "NodeName=node1 Name=gpu File=/dev/nvidia[0-x]\n", want: gresPath + ":1: NodeName=node1: File: invalid value"},
		"a node not configured":    {node: "node9", want: "node9"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(cl.ConfPath, append(append([]byte{}, orig...), tc.slurm...), 0o644); err != nil {
				t.Fatal(err)
			}
			defer os.WriteFile(cl.ConfPath, orig, 0o644)
			if tc.gres != "" {
				if err := os.WriteFile(gresPath, []byte(tc.gres), 0o644); err != nil {
					t.Fatal(err)
				}
				defer os.WriteFile(gresPath, origGres, 0o644)
			}
			node := tc.node
			if node == "" {
				node = cl.Nodes[0].Name
			}
			regs := cl.Ctld.NumRegisters()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			out, err := exec.CommandContext(ctx, bin, "-N", node, "-f", cl.ConfPath, "--emulate",
				"--cgroup-root", cgroupRoot(cl.Dir, node)).CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() <= 0 {
				t.Fatalf("loam-noded = %v, want a non-zero exit:\n%s", err, out)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("output does not say %q:\n%s", tc.want, out)
			}
			if n := cl.Ctld.NumRegisters(); n != regs {
				t.Errorf("the daemon registered (%d registrations, %d before)", n, regs)
			}
		})
	}
}
