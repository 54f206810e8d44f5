package usage

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestScanStepsLeavesSentStepsToTheirEvent: a step whose usage the node
// daemon numbered as its own event stays out of the end event's fallback,
// and a step without usage yet is named as unrecorded.
func TestScanStepsLeavesSentStepsToTheirEvent(t *testing.T) {
	job := t.TempDir()
	for _, d := range []string{"step_0", "step_1", "step_2"} {
		if err := os.Mkdir(filepath.Join(job, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	n := api.NodeUsage{Node: "n1", Tasks: []api.TaskUsage{{Task: 0, UserUsec: 5}}}
	for _, d := range []string{"step_0", "step_1"} {
		if err := WriteStep(filepath.Join(job, d), n); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(job, "step_0", EventFile), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	found, unrecorded, err := ScanSteps(job)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]api.StepNodeUsage{{StepID: 1, Usage: n}}, found); diff != "" {
		t.Errorf("found (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{filepath.Join(job, "step_2")}, unrecorded); diff != "" {
		t.Errorf("unrecorded (-want +got):\n%s", diff)
	}
}

// TestScanStepsReportsABadFileAndGoesOn: one unreadable usage file is an
// error naming its step, and the other steps are still collected.
func TestScanStepsReportsABadFileAndGoesOn(t *testing.T) {
	job := t.TempDir()
	for _, d := range []string{"step_0", "step_1"} {
		if err := os.Mkdir(filepath.Join(job, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(job, "step_0", StepFile), []byte("{bad"), 0o600); err != nil {
		t.Fatal(err)
	}
	n := api.NodeUsage{Node: "n1", Tasks: []api.TaskUsage{{Task: 3}}}
	if err := WriteStep(filepath.Join(job, "step_1"), n); err != nil {
		t.Fatal(err)
	}
	found, _, err := ScanSteps(job)
	if err == nil {
		t.Error("bad usage file: no error")
	}
	if diff := cmp.Diff([]api.StepNodeUsage{{StepID: 1, Usage: n}}, found); diff != "" {
		t.Errorf("found (-want +got):\n%s", diff)
	}
}

// TestWaitExitSeesTheProcessEnd: a running process is not reported
// exited (the wait ends with its context), a killed one is, unreaped.
func TestWaitExitSeesTheProcessEnd(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skipf("no sleep: %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if exited, err := WaitExit(ctx, cmd.Process.Pid); exited || err == nil {
		t.Errorf("running process: exited %v, err %v; want the context's error", exited, err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if exited, err := WaitExit(context.Background(), cmd.Process.Pid); !exited || err != nil {
		t.Errorf("killed process: exited %v, err %v; want exited", exited, err)
	}
}
