package supervisor

import (
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/isolation"
	"github.com/loamhpc/loam/pkg/isolation/isolationtest"
)

// TestOOMLineLife: the line a Slurm 22.05 slurmstepd writes into the error
// file of a job the OOM killer hit.
func TestOOMLineLife(t *testing.T) {
	tests := map[string]struct {
		kills uint64
		want  string
	}{
		"one kill":  {1, "slurmstepd-cpu001: error: Detected 1 oom_kill event in StepId=12.batch. Some of the step tasks have been OOM Killed.\n"},
		"two kills": {2, "slurmstepd-cpu001: error: Detected 2 oom_kill events in StepId=12.batch. Some of the step tasks have been OOM Killed.\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, oomLine("cpu001", 12, tc.kills)); diff != "" {
				t.Errorf("line (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLoopWritesOOMLineLife: a batch script the OOM killer ended gets the
// line in its error file when it ends; one that ended by itself does not.
func TestLoopWritesOOMLineLife(t *testing.T) {
	tests := map[string]struct {
		kills uint64
		want  []string
	}{
		"oom killed": {1, []string{"slurmstepd-n1: error: Detected 1 oom_kill event in StepId=7.batch. Some of the step tasks have been OOM Killed.\n"}},
		"no oom":     {0, nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				aj := &announcingJob{}
				aj.start, aj.done = time.Now(), make(chan struct{})
				iso := &isolationtest.Isolator{}
				g, _ := iso.Create(isolation.Spec{Name: "loam/n1/job_7"})
				g.(*isolationtest.Group).SetOOMKills(tc.kills)
				r := api.LaunchRequest{JobID: 7, Batch: true, TimeLimit: 3600}
				s := &Supervisor{launch: spool.Launch{Request: r, Node: "n1"}, ctl: newControl(), job: aj, group: g, log: NewLogger(t.Output())}
				s.ctl.setRunning(aj.start, 42)
				aj.exit(syscall.WaitStatus(syscall.SIGKILL))
				res := s.loop()
				if diff := cmp.Diff(tc.want, aj.lines); diff != "" {
					t.Errorf("error file lines (-want +got):\n%s", diff)
				}
				if res.OOM != (tc.kills > 0) {
					t.Errorf("result OOM = %v", res.OOM)
				}
			})
		})
	}
}
