package usage

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestMemPeakOfARealCgroup: a task that touched 40 MiB inside a v1
// memory cgroup leaves a peak of at least that. Root and a v1 memory
// hierarchy only.
func TestMemPeakOfARealCgroup(t *testing.T) {
	mem := filepath.Join(CgroupRoot, "memory")
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	if _, err := os.Stat(filepath.Join(mem, "memory.max_usage_in_bytes")); err != nil {
		t.Skip("no cgroup v1 memory hierarchy")
	}
	name := "loam-usage-test-" + strconv.Itoa(os.Getpid())
	dir := filepath.Join(mem, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(dir)
	cmd, in, _ := startChild(t, 0, 40)
	if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(cmd.Process.Pid)), 0o644); err != nil {
		t.Fatal(err)
	}
	start(t, in) // it touches its memory once in the group
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if peak := MemPeak(name); peak < 40<<20 {
		t.Fatalf("peak %d bytes, want at least 40 MiB", peak)
	}
}
