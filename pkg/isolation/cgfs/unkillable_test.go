package cgfs

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/isolation"
)

// TestV1KillGivesUpOnAFrozenChild: a process in a child group frozen on
// its own stays frozen when Kill thaws the group, so SIGKILL cannot end
// it; Kill gives up after its bound with ErrUnkillable, and ends it once
// the child is thawed.
func TestV1KillGivesUpOnAFrozenChild(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	v, err := NewV1("")
	if err != nil {
		t.Skipf("no cgroup v1 controllers: %v", err)
	}
	name := fmt.Sprintf("loam-test/unkillable-%d", os.Getpid())
	dir := filepath.Join(v.Root(), "freezer", name)
	stuck := filepath.Join(dir, "stuck")
	if err := os.MkdirAll(stuck, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = os.WriteFile(filepath.Join(stuck, "freezer.state"), []byte("THAWED"), 0)
		_ = os.Remove(stuck)
		_ = os.Remove(dir)
		_ = os.Remove(filepath.Dir(dir))
	})
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	for file, value := range map[string]string{"cgroup.procs": strconv.Itoa(cmd.Process.Pid), "freezer.state": "FROZEN"} {
		if err := writeFile(filepath.Join(stuck, file), value); err != nil {
			t.Fatal(err)
		}
	}
	v.SetKillTimeout(200 * time.Millisecond)
	g := v.Group(name)
	start := time.Now()
	err = g.Kill()
	if !errors.Is(err, isolation.ErrUnkillable) {
		t.Fatalf("Kill of a frozen process = %v, want ErrUnkillable", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Kill gave up after %v, want about its 200ms bound", took)
	}
	if err := writeFile(filepath.Join(stuck, "freezer.state"), "THAWED"); err != nil {
		t.Fatal(err)
	}
	if err := g.Kill(); err != nil {
		t.Fatalf("Kill once thawed = %v", err)
	}
	if err := cmd.Wait(); err == nil {
		t.Error("the process survived Kill")
	}
}
