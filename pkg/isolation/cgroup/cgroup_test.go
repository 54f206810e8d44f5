package cgroup

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/loamhpc/loam/pkg/isolation"
)

// helperEnv makes the test binary act as a job process: it waits for a
// line on stdin (so the test can add it to a group first), then does what
// the variable says.
const helperEnv = "LOAM_CGROUP_TEST_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode))
	}
	os.Exit(m.Run())
}

func helper(mode string) int {
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return 2
	}
	verb, arg, _ := strings.Cut(mode, ":")
	switch verb {
	case "open":
		f, err := os.OpenFile(arg, os.O_RDWR, 0)
		switch {
		case err == nil:
			f.Close()
			fmt.Println("ok")
		case errors.Is(err, unix.EPERM):
			fmt.Println("EPERM")
		case errors.Is(err, unix.ENXIO):
			fmt.Println("ENXIO")
		default:
			fmt.Println(err)
		}
	case "hog":
		mb, _ := strconv.Atoi(arg)
		var keep [][]byte
		for range mb {
			b := make([]byte, 1<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			keep = append(keep, b)
		}
		fmt.Println("survived", len(keep))
	case "sleep":
		// Children that would outlive a plain kill of the parent.
		for range 3 {
			_ = exec.Command("sleep", "300").Start()
		}
		fmt.Println("started")
		select {}
	}
	return 0
}

// held is a helper process waiting on stdin.
type held struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *strings.Builder
}

func startHeld(t *testing.T, mode string) *held {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"="+mode)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out := &strings.Builder{}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return &held{cmd: cmd, stdin: in, out: out}
}

// run releases the helper and waits for it.
func (h *held) run() (string, error) {
	_, _ = io.WriteString(h.stdin, "go\n")
	err := h.cmd.Wait()
	return strings.TrimSpace(h.out.String()), err
}

func requireRoot(t *testing.T) *V1 {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("cgroup tests create control groups and need root")
	}
	v, err := NewV1("")
	if err != nil {
		t.Skipf("this host has no cgroup v1 controllers: %v", err)
	}
	return v
}

// newGroup creates a group unique to the test and removes it afterwards.
func newGroup(t *testing.T, v *V1, s isolation.Spec) isolation.Group {
	t.Helper()
	base := fmt.Sprintf("loam-test/%d", os.Getpid())
	s.Name = base + "/" + strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	g, err := v.Create(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := g.Kill(); err != nil {
			t.Error(err)
		}
		if err := g.Delete(); err != nil {
			t.Error(err)
		}
		for _, c := range v.fs.Controllers() {
			_ = os.Remove(filepath.Join(v.fs.Root(), c, base))
			_ = os.Remove(filepath.Join(v.fs.Root(), c, "loam-test"))
		}
	})
	return g
}

func TestMemoryLimitOOMKills(t *testing.T) {
	v := requireRoot(t)
	g := newGroup(t, v, isolation.Spec{MemoryBytes: 64 << 20})
	h := startHeld(t, "hog:256")
	if err := g.Add(h.cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	out, err := h.run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("hog ended with %v (output %q), want SIGKILL", err, out)
	}
	n, err := g.OOMKills()
	if err != nil || n == 0 {
		t.Fatalf("OOMKills = %d, %v; want at least 1", n, err)
	}
}

func TestWithinMemoryLimitNoOOM(t *testing.T) {
	v := requireRoot(t)
	g := newGroup(t, v, isolation.Spec{MemoryBytes: 256 << 20})
	h := startHeld(t, "hog:32")
	if err := g.Add(h.cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	if out, err := h.run(); err != nil || out != "survived 32" {
		t.Fatalf("hog = %q, %v", out, err)
	}
	if n, err := g.OOMKills(); err != nil || n != 0 {
		t.Fatalf("OOMKills = %d, %v; want 0", n, err)
	}
}

// TestDevicesDenied creates two fake GPU device nodes, denies one, and
// opens both from inside the group: the allowed one reaches the (absent)
// driver, ENXIO, the denied one is refused by the cgroup, EPERM.
func TestDevicesDenied(t *testing.T) {
	v := requireRoot(t)
	dir := t.TempDir()
	allowed, denied := filepath.Join(dir, "nvidia6"), filepath.Join(dir, "nvidia7")
	for i, p := range []string{allowed, denied} {
		if err := unix.Mknod(p, unix.S_IFCHR|0o666, int(unix.Mkdev(195, uint32(6+i)))); err != nil {
			t.Fatal(err)
		}
	}
	g := newGroup(t, v, isolation.Spec{DenyDevices: []string{denied}})
	tests := map[string]struct {
		path string
		want []string
	}{
		"denied GPU":  {path: denied, want: []string{"EPERM"}},
		"allowed GPU": {path: allowed, want: []string{"ENXIO", "ok"}},
		"/dev/null":   {path: "/dev/null", want: []string{"ok"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := startHeld(t, "open:"+tc.path)
			if err := g.Add(h.cmd.Process.Pid); err != nil {
				t.Fatal(err)
			}
			out, err := h.run()
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, w := range tc.want {
				found = found || out == w
			}
			if !found {
				t.Errorf("open %s inside the group = %q, want one of %q", tc.path, out, tc.want)
			}
		})
	}
}

func TestKillEndsEveryProcess(t *testing.T) {
	v := requireRoot(t)
	g := newGroup(t, v, isolation.Spec{PidsMax: 64, CPUs: "0"})
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"=sleep")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if err := g.Add(cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	_, _ = io.WriteString(in, "go\n")
	// The helper prints "started" once its three children run.
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "started\n" {
		t.Fatalf("helper said %q, %v", line, err)
	}
	if pids, err := g.Pids(); err != nil || len(pids) != 4 {
		t.Fatalf("group holds %v (%v), want the helper and its 3 children", pids, err)
	}
	if err := g.Kill(); err != nil {
		t.Fatal(err)
	}
	if pids, err := g.Pids(); err != nil || len(pids) != 0 {
		t.Fatalf("after Kill the group holds %v (%v)", pids, err)
	}
	if err := g.Delete(); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Load(g.Name()); !errors.Is(err, isolation.ErrNotExist) {
		t.Errorf("Load after Delete = %v, want ErrNotExist", err)
	}
}

func TestCreateReplacesEmptyLeftover(t *testing.T) {
	v := requireRoot(t)
	g := newGroup(t, v, isolation.Spec{MemoryBytes: 1 << 30})
	again, err := v.Create(isolation.Spec{Name: g.Name(), MemoryBytes: 2 << 30})
	if err != nil {
		t.Fatalf("Create over an empty leftover: %v", err)
	}
	limit, err := os.ReadFile(filepath.Join(v.fs.Root(), "memory", again.Name(), "memory.limit_in_bytes"))
	if err != nil || strings.TrimSpace(string(limit)) != strconv.Itoa(2<<30) {
		t.Errorf("memory limit = %q, %v; want the new spec's", limit, err)
	}
	h := startHeld(t, "sleep")
	if err := again.Add(h.cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Create(isolation.Spec{Name: g.Name()}); err == nil {
		t.Error("Create over a group with processes succeeded")
	}
	if err := again.Delete(); err == nil {
		t.Error("Delete of a group with processes succeeded")
	}
}

func TestSpecErrors(t *testing.T) {
	v := requireRoot(t)
	tests := map[string]isolation.Spec{
		"bad name":           {Name: "../x"},
		"deny missing file":  {Name: "loam-test/bad1", DenyDevices: []string{"/nonexistent/nvidia0"}},
		"deny regular file":  {Name: "loam-test/bad2", DenyDevices: []string{"/etc/hostname"}},
		"cpus not on a host": {Name: "loam-test/bad3", CPUs: "4096"},
	}
	for name, s := range tests {
		t.Run(name, func(t *testing.T) {
			if g, err := v.Create(s); err == nil {
				_ = g.Delete()
				t.Fatalf("Create(%+v) succeeded", s)
			}
		})
	}
	for _, c := range v.fs.Controllers() {
		_ = os.Remove(filepath.Join(v.fs.Root(), c, "loam-test/bad3"))
		_ = os.Remove(filepath.Join(v.fs.Root(), c, "loam-test"))
	}
}

func TestLoadMissing(t *testing.T) {
	v := requireRoot(t)
	if _, err := v.Load("loam-test/never-created"); !errors.Is(err, isolation.ErrNotExist) {
		t.Errorf("Load = %v, want ErrNotExist", err)
	}
}

// TestSignalChildrenSparesTheGroupItself: a signal for a job's steps
// reaches the processes of the child group and not the job's own (the
// batch script), as scancel --signal without -b or -f does.
func TestSignalChildrenSparesTheGroupItself(t *testing.T) {
	v := requireRoot(t)
	job := newGroup(t, v, isolation.Spec{PidsMax: 64})
	step, err := v.Create(isolation.Spec{Name: job.Name() + "/step_0", PidsMax: 64})
	if err != nil {
		t.Fatal(err)
	}
	start := func(g isolation.Group) *exec.Cmd {
		cmd := exec.Command("sleep", "60")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		if err := g.Add(cmd.Process.Pid); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	batch, task := start(job), start(step)
	if err := job.SignalChildren(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = task.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
		t.Errorf("the step's process ended with %v, want SIGTERM", err)
	}
	if err := batch.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the job's own process did not survive: %v", err)
	}
	if pids, err := job.Pids(); err != nil || len(pids) != 1 || pids[0] != batch.Process.Pid {
		t.Errorf("job group holds %v (%v), want only %d", pids, err, batch.Process.Pid)
	}
}
