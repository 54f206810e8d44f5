package agent

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// fakeProc writes what describe reads of one process under dir.
func fakeProc(t *testing.T, dir string, pid, ppid int, cgroup, cmdline, environ string) {
	t.Helper()
	p := filepath.Join(dir, strconv.Itoa(pid))
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"cgroup":  cgroup,
		"cmdline": cmdline,
		"environ": environ,
		"stat":    strconv.Itoa(pid) + " (sh -c x) S " + strconv.Itoa(ppid) + " 1 1 0",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(p, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDescribePids: the batch script and a step's task get their ids,
// their children "-", Loam's helpers are left out, and rows come batch
// first, then by step and pid, as scontrol listpids prints them.
func TestDescribePids(t *testing.T) {
	dir := t.TempDir()
	const group = "loam/n01/job_7"
	env := func(local, global string) string {
		return "SLURM_JOB_ID=7\x00SLURM_LOCALID=" + local + "\x00SLURM_PROCID=" + global + "\x00"
	}
	fakeProc(t, dir, 100, 1, "0::/"+group+"\n", "loam-supervise\x00__supervise\x00/spool/7\x00", "")
	fakeProc(t, dir, 101, 100, "0::/"+group+"\n", "/bin/sh\x00script\x00", env("0", "0"))
	fakeProc(t, dir, 102, 101, "0::/"+group+"\n", "sleep\x0060\x00", env("0", "0"))
	fakeProc(t, dir, 200, 1, "4:memory:/other\n0::/"+group+"/step_0\n", "loam-noded\x00__step\x00/spool/7/step_0\x00", "")
	fakeProc(t, dir, 205, 200, "4:memory:/"+group+"/step_0\n", "a.out\x00", env("1", "3"))
	fakeProc(t, dir, 203, 200, "0::/"+group+"/step_0/tasks\n", "a.out\x00", env("0", "2"))
	got := describe(dir, 7, group, []int{205, 203, 200, 102, 101, 100})
	want := []api.JobProc{
		{PID: 101, JobID: 7, Step: "batch", LocalID: 0, GlobalID: 0},
		{PID: 102, JobID: 7, Step: "batch", LocalID: -1, GlobalID: -1},
		{PID: 203, JobID: 7, Step: "0", LocalID: 0, GlobalID: 2},
		{PID: 205, JobID: 7, Step: "0", LocalID: 1, GlobalID: 3},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// TestParentOfOddNames: a command name with spaces and parentheses does
// not shift the fields of /proc/PID/stat.
func TestParentOfOddNames(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "5")
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p, "stat"), []byte("5 (a) b (c) S 42 5 5 0"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := parent(dir, 5); got != 42 {
		t.Errorf("parent = %d, want 42", got)
	}
	if got := parent(dir, 6); got != 0 {
		t.Errorf("parent of a missing process = %d, want 0", got)
	}
}
