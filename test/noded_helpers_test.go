//go:build integration

package test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/loamhpc/loam/noded/nodedtest"
	"github.com/loamhpc/loam/pkg/api"
)

// nodedWait bounds each wait on a node daemon: generous for a loaded
// two-core machine; waits wake on every change and never poll.
const nodedWait = 60 * time.Second

// nodedBin returns bin/loam-noded ($LOAM_BIN) and skips without root:
// these tests create cgroups, device nodes and users for real.
func nodedBin(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("LOAM_BIN")
	if dir == "" {
		t.Skip("LOAM_BIN is not set: run `make integration`")
	}
	if os.Geteuid() != 0 {
		t.Skip("node daemon tests run jobs in cgroups as other users: they need root")
	}
	return filepath.Join(dir, "loam-noded")
}

// nodedCluster is a fake controller and a generated configuration.
func nodedCluster(t *testing.T, spec nodedtest.ClusterSpec) *nodedtest.Cluster {
	t.Helper()
	if spec.Nodes == 0 {
		spec.Nodes = 1
	}
	if spec.CPUs == 0 {
		spec.CPUs = 8
	}
	if spec.MemoryMB == 0 {
		spec.MemoryMB = 32000
	}
	if spec.KillWait == 0 {
		spec.KillWait = 1
	}
	t.Cleanup(cleanCgroups)
	return nodedtest.NewCluster(t, spec)
}

// nodedProc is a running loam-noded.
type nodedProc struct {
	t    *testing.T
	cl   *nodedtest.Cluster
	node nodedtest.Node
	cmd  *exec.Cmd
	done chan struct{}
}

// cgroupRoot keeps each test cluster's jobs in a subtree of their own
// (job ids start at 1 in every cluster, so two clusters sharing a
// subtree would share job cgroups).
func cgroupRoot(clusterDir, node string) string {
	return fmt.Sprintf("loam-it/%d/%s/%s", os.Getpid(), filepath.Base(clusterDir), node)
}

// killLeftovers kills whatever a test cluster's jobs left running: job
// supervisors and step processes outlive their node daemon by design, and
// a test that fails midway leaves them behind, holding cgroups and ports.
// They are found by the cluster's directory on their command lines and
// by the cluster's cgroup subtree.
func killLeftovers(clusterDir string) {
	subtree := fmt.Sprintf("loam-it/%d/%s", os.Getpid(), filepath.Base(clusterDir))
	for range 100 {
		pids := leftoverPids(clusterDir, subtree)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(20 * time.Millisecond) // bounded: 100 rounds at most
	}
}

func leftoverPids(clusterDir, subtree string) []int {
	var pids []int
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), clusterDir+"/") {
			continue
		}
		var pid int
		if _, err := fmt.Sscanf(p, "/proc/%d/cmdline", &pid); err == nil && pid != os.Getpid() {
			pids = append(pids, pid)
		}
	}
	roots, _ := filepath.Glob("/sys/fs/cgroup/*/" + subtree)
	roots = append(roots, "/sys/fs/cgroup/"+subtree)
	for _, r := range roots {
		_ = filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() != "cgroup.procs" {
				return nil
			}
			b, _ := os.ReadFile(p)
			for _, f := range strings.Fields(string(b)) {
				var pid int
				if _, err := fmt.Sscan(f, &pid); err == nil {
					pids = append(pids, pid)
				}
			}
			return nil
		})
	}
	return pids
}

// startNoded starts node i's daemon and waits for its registration.
func startNoded(t *testing.T, cl *nodedtest.Cluster, i int) *nodedProc {
	t.Helper()
	bin := nodedBin(t)
	n := cl.Nodes[i]
	regs := len(cl.Ctld.Registers())
	logf, err := os.OpenFile(filepath.Join(cl.Dir, n.Name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	cmd := exec.Command(bin, "-N", n.Name, "-f", cl.ConfPath, "--emulate", "--cgroup-root", cgroupRoot(cl.Dir, n.Name), "--log-format", "text")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &nodedProc{t: t, cl: cl, node: n, cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.stop()
		killLeftovers(cl.Dir)
		if t.Failed() {
			data, _ := os.ReadFile(logf.Name())
			t.Logf("%s log:\n%s", n.Name, data)
		}
	})
	if !cl.Ctld.Until(nodedWait, func(c *nodedtest.Ctld) bool { return c.NumRegisters() > regs }) {
		t.Fatalf("%s did not register", n.Name)
	}
	return p
}

// stop ends the daemon with SIGTERM (its jobs keep running).
func (p *nodedProc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	<-p.done
}

// kill9 ends the daemon the hard way.
func (p *nodedProc) kill9() {
	_ = p.cmd.Process.Kill()
	<-p.done
}

// batch is a batch launch of script for node n, with its output in a
// fresh directory.
func batch(t *testing.T, n nodedtest.Node, id uint32, script string) *api.LaunchRequest {
	dir := t.TempDir()
	alloc := api.NodeAllocation{Node: n.Name, CPUs: 1, Memory: 256}
	return &api.LaunchRequest{JobID: id, Name: "it", Batch: true, UserName: "root",
		Script: "#!/bin/bash\n" + script + "\n", WorkDir: dir, StdOut: filepath.Join(dir, "slurm-%j.out"),
		Alloc: alloc, Nodes: []api.NodeAllocation{alloc}, NodeList: n.Name,
		TimeLimit: 3600, KillWait: 1, ClusterName: "test", Partition: "normal", StartTime: time.Now().Unix()}
}

func (p *nodedProc) launch(req *api.LaunchRequest) {
	p.t.Helper()
	if _, err := p.cl.Ctld.Launch(context.Background(), p.node.Addr, req); err != nil {
		p.t.Fatalf("launch job %d: %v", req.JobID, err)
	}
}

// ended waits for job id's end as the controller applied it.
func ended(t *testing.T, cl *nodedtest.Cluster, id uint32) api.JobEvent {
	t.Helper()
	var ev api.JobEvent
	if !cl.Ctld.Until(nodedWait, func(c *nodedtest.Ctld) bool {
		var ok bool
		ev, ok = c.Ended(id)
		return ok
	}) {
		t.Fatalf("job %d did not end", id)
	}
	return ev
}

func started(t *testing.T, cl *nodedtest.Cluster, id uint32) {
	t.Helper()
	if !cl.Ctld.Until(nodedWait, func(c *nodedtest.Ctld) bool { return c.Started(id) }) {
		t.Fatalf("job %d did not start", id)
	}
}

// output reads a job's output file (slurm-<id>.out in its work dir).
func output(t *testing.T, req *api.LaunchRequest) string {
	t.Helper()
	data, err := os.ReadFile(strings.ReplaceAll(req.StdOut, "%j", fmt.Sprint(req.JobID)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// cleanCgroups removes the test binary's empty job subtrees.
func cleanCgroups() {
	roots, _ := filepath.Glob(fmt.Sprintf("/sys/fs/cgroup/*/loam-it/%d", os.Getpid()))
	for _, r := range roots {
		var dirs []string
		_ = filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, p)
			}
			return nil
		})
		for i := len(dirs) - 1; i >= 0; i-- {
			_ = os.Remove(dirs[i])
		}
		_ = os.Remove(filepath.Dir(r))
	}
}
