package cgfs

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/isolation"
)

// writeTree makes a fake group tree: each key a directory below root with
// the given cgroup.procs contents.
func writeTree(t *testing.T, root string, procs map[string]string) {
	t.Helper()
	for dir, list := range procs {
		d := filepath.Join(root, dir)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "cgroup.procs"), []byte(list), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReadProcs(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"job": "10\n11\n", "job/step_0": "20\n", "job/step_1": "", "job/step_1/x": "30\n"})
	tests := map[string]struct {
		read    func(string) ([]int, error)
		dir     string
		want    []int
		wantErr error
	}{
		"a group and its children": {read: readProcs, dir: "job", want: []int{10, 11, 20, 30}},
		"only the children":        {read: readChildProcs, dir: "job", want: []int{20, 30}},
		"a group that is gone":     {read: readProcs, dir: "gone", wantErr: isolation.ErrNotExist},
		"children of a group gone": {read: readChildProcs, dir: "gone", wantErr: isolation.ErrNotExist},
		"a leaf without processes": {read: readProcs, dir: "job/step_1/x", want: []int{30}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := tc.read(filepath.Join(root, tc.dir))
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("error = %v, want %v", err, tc.wantErr)
			}
			slices.Sort(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("pids (-want +got):\n%s", diff)
			}
		})
	}
}

func TestKeyValue(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.oom_control")
	if err := os.WriteFile(path, []byte("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		key  string
		want uint64
	}{
		"present":                    {key: "oom_kill", want: 3},
		"a prefix of another is not": {key: "oom", want: 0},
		"absent is zero":             {key: "nothing", want: 0},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := keyValue(path, tc.key)
			if err != nil || got != tc.want {
				t.Errorf("keyValue(%q) = %d, %v; want %d", tc.key, got, err, tc.want)
			}
		})
	}
}

func TestRemoveGroupDirTakesChildrenFirst(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "job", "step_0", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := removeGroupDir(filepath.Join(root, "job")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "job")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("group still there: %v", err)
	}
	if err := removeGroupDir(filepath.Join(root, "job")); err != nil {
		t.Errorf("removing a group that is gone: %v", err)
	}
}

// TestV1GroupOnTheHost makes a group by hand in every controller, as the
// node daemon's isolator would, and drives it through this package only.
func TestV1GroupOnTheHost(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	v, err := NewV1("")
	if err != nil {
		t.Skipf("no cgroup v1 controllers: %v", err)
	}
	name := fmt.Sprintf("loam-test/cgfs-%d", os.Getpid())
	if _, err := v.Load(name); !errors.Is(err, isolation.ErrNotExist) {
		t.Fatalf("Load before creation = %v, want ErrNotExist", err)
	}
	for _, c := range v.Controllers() {
		if err := os.MkdirAll(filepath.Join(v.Root(), c, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, c := range v.Controllers() {
			_ = os.Remove(filepath.Join(v.Root(), c, name))
			_ = os.Remove(filepath.Join(v.Root(), c, "loam-test"))
		}
	})
	// cpuset groups start without CPUs or memory nodes: copy the parent's.
	for _, f := range []string{"cpuset.cpus", "cpuset.mems"} {
		data, err := os.ReadFile(filepath.Join(v.Root(), "cpuset", f))
		if err == nil {
			_ = os.WriteFile(filepath.Join(v.Root(), "cpuset", "loam-test", f), data, 0)
			err = os.WriteFile(filepath.Join(v.Root(), "cpuset", name, f), data, 0)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	g, err := v.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if err := g.Add(cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	if pids, err := g.Pids(); err != nil || !slices.Equal(pids, []int{cmd.Process.Pid}) {
		t.Errorf("Pids = %v, %v; want [%d]", pids, err, cmd.Process.Pid)
	}
	if err := g.Delete(); err == nil {
		t.Error("Delete of a group with a process succeeded")
	}
	if n, err := g.OOMKills(); err != nil || n != 0 {
		t.Errorf("OOMKills = %d, %v", n, err)
	}
	if err := g.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Error("the process survived Kill")
	}
	if err := g.Delete(); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Load(name); !errors.Is(err, isolation.ErrNotExist) {
		t.Errorf("Load after Delete = %v, want ErrNotExist", err)
	}
}

func TestInvalidNames(t *testing.T) {
	v := &V1{root: t.TempDir(), ctrls: V1Controllers}
	v2 := &V2{mount: t.TempDir()}
	for _, name := range []string{"", "/abs", "a/../b", "a b"} {
		if _, err := v.Load(name); err == nil || errors.Is(err, isolation.ErrNotExist) {
			t.Errorf("v1 Load(%q) = %v, want a name error", name, err)
		}
		if _, err := v2.Load(name); err == nil || errors.Is(err, isolation.ErrNotExist) {
			t.Errorf("v2 Load(%q) = %v, want a name error", name, err)
		}
	}
}
