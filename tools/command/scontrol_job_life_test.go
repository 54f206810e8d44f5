package command

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestShowJobDerivedExitCodeLife: scontrol show job -d prints the highest
// step exit as the Slurm 22.05 peer does for a script whose `srun bash -c
// 'exit 7'` failed and that then ran `exit 0`:
// "ExitCode=0:0" and, on its own line, "DerivedExitCode=7:0".
func TestShowJobDerivedExitCodeLife(t *testing.T) {
	tests := map[string]struct {
		detail bool
		want   []string
	}{
		"with -d": {true, []string{"   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0", "   DerivedExitCode=7:0"}},
		"without": {false, []string{"   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			j := &api.Job{JobID: 5, JobState: job.Completed, Requeue: true, BatchFlag: true,
				DerivedExitCode: job.ExitCode{Status: 7}}
			f := &jobFormatter{detail: tc.detail}
			var got []string
			for _, l := range strings.Split(string(f.appendJob(nil, j)), "\n") {
				if strings.Contains(l, "ExitCode=") {
					got = append(got, l)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("exit lines (-want +got):\n%s", diff)
			}
		})
	}
}
