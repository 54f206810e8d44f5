package step

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestStepJobEnding: told its job ends, the step writes slurmstepd's
// cancel line with the reason, tells srun it was aborted, acknowledges
// by removing the ending file, and leaves the tasks to the supervisor
// (here a step cancel kills them).
func TestStepJobEnding(t *testing.T) {
	iso := isolator(t)
	srun := newFakeSrun(t)
	go srun.serve()
	dir := stepFixture(t, srun, &api.StepCreateRequest{Argv: []string{"sh", "-c", "echo up; exec sleep 30"}, StdIn: "none"}, []int{0})
	done := runFixture(t, iso, dir)
	sent, aborted := false, false
	got := srun.collect(func(fr api.StepIOFrame) {
		switch {
		case fr.Kind == api.IOStdout && !sent:
			sent = true
			if err := os.WriteFile(filepath.Join(dir, endingFile), []byte(" DUE TO TIME LIMIT"), 0o600); err != nil {
				t.Error(err)
			}
			if err := syscall.Kill(os.Getpid(), EndingSignal); err != nil {
				t.Error(err)
			}
		case fr.Kind == api.IOAborted:
			aborted = true
			if err := syscall.Kill(os.Getpid(), CancelSignal); err != nil { // the supervisor's part
				t.Error(err)
			}
		}
	})
	<-done
	if !strings.Contains(got.Stderr[0], "slurmstepd-n1: error: *** STEP 1.0 ON n1 CANCELLED AT ") ||
		!strings.Contains(got.Stderr[0], " DUE TO TIME LIMIT ***\n") {
		t.Errorf("stderr %q lacks the cancel line with its reason", got.Stderr[0])
	}
	if strings.Count(got.Stderr[0], "CANCELLED") != 1 {
		t.Errorf("stderr %q: want one cancel line", got.Stderr[0])
	}
	if !aborted {
		t.Error("srun was not told the step was aborted")
	}
	if got.Exits[0] != (job.ExitCode{Signal: int(syscall.SIGKILL)}) {
		t.Errorf("exits %+v, want task 0 killed", got.Exits)
	}
	if _, err := os.Stat(filepath.Join(dir, endingFile)); err == nil {
		t.Error("the ending file was not removed")
	}
}
