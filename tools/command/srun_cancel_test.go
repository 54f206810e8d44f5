package command

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSrunStepCancelledOnNode: scancel JOB.STEP (and the job's own
// cancel or time limit) reaches srun as the node's cancel line and
// api.IOAborted: srun says it waits for the step, as the peer's does
// ("srun sleep 60" then "scancel J.0" on the peer:
// testdata/peer/srun-cancel.txt), and not "Force Terminated", which
// stays for tasks killed from outside Slurm.
func TestSrunStepCancelledOnNode(t *testing.T) {
	tests := map[string]struct {
		line     string
		exit     job.ExitCode
		wantCode int
		wantEnd  string
	}{
		"scancel of the step: Killed": {line: cancelledLine, exit: job.ExitCode{Signal: 9}, wantCode: 137,
			wantEnd: "srun: error: n01: tasks 0-1: Killed\n"},
		"scancel of the job: Terminated": {line: cancelledLine, exit: job.ExitCode{Signal: 15}, wantCode: 143,
			wantEnd: "srun: error: n01: tasks 0-1: Terminated\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			runSrunCase(t, srunCase{
				env: insideJobEnv, args: []string{"-N1", "-n2", "sleep", "60"}, layout: oneNode,
				script: []func(n *fakeNode){func(n *fakeNode) {
					n.err(0, tc.line)
					n.send(api.IOAborted, api.AllTasks, nil)
					n.exit(api.StepIOExit{Tasks: []int{0, 1}, ExitCode: tc.exit})
					n.done()
				}},
				wantCode: tc.wantCode,
				wantStderr: tc.line + "srun: Job step aborted: Waiting up to 7 seconds for job step to finish.\n" +
					tc.wantEnd,
			})
		})
	}
}
