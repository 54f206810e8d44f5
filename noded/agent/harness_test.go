package agent

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/loamhpc/loam/noded/nodedtest"
	"github.com/loamhpc/loam/noded/supervisor"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/isolation/cgfs"
	"github.com/loamhpc/loam/pkg/isolation/cgroup"
)

// TestMain lets the test binary stand in for loam-noded's hidden modes:
// the agent re-executes its own binary as each job's supervisor.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 {
		if os.Args[1] == supervisor.Arg {
			groups, _ := cgfs.New()
			os.Exit(supervisor.Main(os.Args[2], groups, supervisor.NewLogger(os.Stderr)))
		}
	}
	os.Exit(m.Run())
}

// wait bounds every wait for the daemon: generous for a loaded machine,
// never slept through (Until wakes on each change).
const wait = 30 * time.Second

type harness struct {
	t      *testing.T
	cl     *nodedtest.Cluster
	node   nodedtest.Node
	agent  *Agent
	cancel context.CancelFunc
	done   chan error
}

// needRoot skips tests that start real jobs: supervisors create cgroups
// and switch users, which only root may do.
func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("starting jobs needs root (cgroups, setuid)")
	}
	if _, err := cgroup.New(); err != nil {
		t.Skipf("no usable cgroups: %v", err)
	}
}

func newCluster(t *testing.T) *nodedtest.Cluster {
	return nodedtest.NewCluster(t, nodedtest.ClusterSpec{Nodes: 1, CPUs: 8, MemoryMB: 16000, GPUs: 4, KillWait: 1})
}

// startAgent runs the daemon of cl's first node until the test ends or
// stop is called, and waits for its registration.
func startAgent(t *testing.T, cl *nodedtest.Cluster) *harness {
	t.Helper()
	return startAgentWith(t, cl, nil)
}

// startAgentWith is startAgent with setup applied to the daemon before it
// runs.
func startAgentWith(t *testing.T, cl *nodedtest.Cluster, setup func(*Agent)) *harness {
	t.Helper()
	log := logrus.New()
	log.SetOutput(t.Output())
	h := &harness{t: t, cl: cl, node: cl.Nodes[0], done: make(chan error, 1)}
	regs := len(cl.Ctld.Registers())
	a, err := New(Options{ConfPath: cl.ConfPath, NodeName: h.node.Name, Emulate: true,
		CgroupRoot: fmt.Sprintf("loam-test/%d/%s", os.Getpid(), h.node.Name)}, logrus.NewEntry(log))
	if err != nil {
		t.Fatal(err)
	}
	h.agent = a
	if setup != nil {
		setup(a)
	}
	t.Cleanup(func() { removeCgroups(fmt.Sprintf("loam-test/%d", os.Getpid())) })
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go func() { h.done <- a.Run(ctx) }()
	t.Cleanup(h.stop)
	if !cl.Ctld.Until(wait, func(c *nodedtest.Ctld) bool { return c.NumRegisters() > regs }) {
		t.Fatal("daemon did not register")
	}
	return h
}

// stop ends the daemon (not its jobs).
func (h *harness) stop() {
	if h.cancel == nil {
		return
	}
	h.cancel()
	h.cancel = nil
	if err := <-h.done; err != nil {
		h.t.Errorf("daemon: %v", err)
	}
}

// job is a batch launch of script for this node, writing to dir/out.
func (h *harness) job(id uint32, script string) *api.LaunchRequest {
	dir := h.t.TempDir()
	alloc := api.NodeAllocation{Node: h.node.Name, CPUs: 1, Memory: 512}
	return &api.LaunchRequest{JobID: id, Name: "test", Batch: true, UserName: "root",
		Script: "#!/bin/sh\n" + script + "\n", WorkDir: dir, StdOut: filepath.Join(dir, "out"),
		Alloc: alloc, Nodes: []api.NodeAllocation{alloc}, NodeList: h.node.Name,
		TimeLimit: 3600, KillWait: 1, ClusterName: "test", Partition: "normal", StartTime: time.Now().Unix()}
}

func (h *harness) launch(req *api.LaunchRequest) {
	h.t.Helper()
	if _, err := h.cl.Ctld.Launch(context.Background(), h.node.Addr, req); err != nil {
		h.t.Fatalf("launch job %d: %v", req.JobID, err)
	}
}

// ended waits for job id's end event.
func (h *harness) ended(id uint32) api.JobEvent {
	h.t.Helper()
	var ev api.JobEvent
	if !h.cl.Ctld.Until(wait, func(c *nodedtest.Ctld) bool {
		var ok bool
		ev, ok = c.Ended(id)
		return ok
	}) {
		h.t.Fatalf("job %d did not end", id)
	}
	return ev
}

func (h *harness) startedJob(id uint32) {
	h.t.Helper()
	if !h.cl.Ctld.Until(wait, func(c *nodedtest.Ctld) bool { return c.Started(id) }) {
		h.t.Fatalf("job %d did not start", id)
	}
}

func readOut(t *testing.T, req *api.LaunchRequest) string {
	t.Helper()
	data, err := os.ReadFile(req.StdOut)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// removeCgroups removes the test's empty cgroup directories under every
// controller, deepest first.
func removeCgroups(root string) {
	ctrls, _ := filepath.Glob("/sys/fs/cgroup/*/" + root)
	for _, c := range ctrls {
		var dirs []string
		_ = filepath.WalkDir(c, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, p)
			}
			return nil
		})
		for i := len(dirs) - 1; i >= 0; i-- {
			_ = os.Remove(dirs[i])
		}
		_ = os.Remove(filepath.Dir(c))
	}
}
