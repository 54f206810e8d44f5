package step

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// findProcess picks the process whose command line ends with the step's
// hidden argument and directory, not one of another step or a longer path.
func TestFindProcess(t *testing.T) {
	procs := map[string]string{
		"1":    "/sbin/init\x00",
		"20":   "/usr/sbin/loam-noded\x00__step\x00/spool/job_7/step_10\x00",
		"21":   "/usr/sbin/loam-noded\x00__step\x00/spool/job_7/step_1\x00",
		"22":   "/usr/sbin/loam-noded\x00__supervise\x00/spool/job_7\x00",
		"self": "/usr/sbin/loam-noded\x00__step\x00/spool/job_7/step_2\x00",
	}
	root := t.TempDir()
	for pid, cmdline := range procs {
		if err := os.Mkdir(filepath.Join(root, pid), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, pid, "cmdline"), []byte(cmdline), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := map[string]struct {
		dir     string
		wantPid int
		wantErr error
	}{
		"the step's process":                   {dir: "/spool/job_7/step_1", wantPid: 21},
		"a path written with a trailing slash": {dir: "/spool/job_7/step_10/", wantPid: 20},
		"only a non-numeric entry matches":     {dir: "/spool/job_7/step_2", wantErr: ErrNoProcess},
		"a step without a process":             {dir: "/spool/job_7/step_3", wantErr: ErrNoProcess},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			pid, err := findProcess(root, tc.dir)
			if pid != tc.wantPid || !errors.Is(err, tc.wantErr) {
				t.Errorf("findProcess = %d, %v; want %d, %v", pid, err, tc.wantPid, tc.wantErr)
			}
		})
	}
}

// TestStepCancel: CancelSignal to the step process (the node daemon's
// order for scancel JOB.STEP) ends the tasks at once with slurmstepd's
// cancel line, and srun hears them killed by SIGKILL.
func TestStepCancel(t *testing.T) {
	iso := isolator(t)
	srun := newFakeSrun(t)
	go srun.serve()
	dir := stepFixture(t, srun, &api.StepCreateRequest{Argv: []string{"sh", "-c", "echo up; exec sleep 30"}, StdIn: "none"}, []int{0})
	start := time.Now()
	done := runFixture(t, iso, dir)
	sent := false
	got := srun.collect(func(fr api.StepIOFrame) {
		// The task runs: the step process catches the signal by now.
		if fr.Kind == api.IOStdout && !sent {
			sent = true
			if err := syscall.Kill(os.Getpid(), CancelSignal); err != nil {
				t.Error(err)
			}
		}
	})
	if got.Exits[0] != (job.ExitCode{Signal: int(syscall.SIGKILL)}) {
		t.Errorf("exits %+v, want task 0 killed by SIGKILL", got.Exits)
	}
	if !strings.Contains(got.Stderr[0], "slurmstepd-n1: error: *** STEP 1.0 ON n1 CANCELLED AT ") {
		t.Errorf("stderr %q lacks the cancel line", got.Stderr[0])
	}
	<-done
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the step took %s to end", took)
	}
}
