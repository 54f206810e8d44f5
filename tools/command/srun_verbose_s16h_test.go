package command

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// srunVerboseBlock is the peer's option block for srun -v -n2 inside
// allocation 21781 of one node (the fake controller numbers the step 3).
const srunVerboseBlock = "srun: defined options\n" +
	"srun: -------------------- --------------------\n" +
	"srun: (null)              : cpu001\n" +
	"srun: jobid               : 21781\n" +
	"srun: nodes               : 1\n" +
	"srun: ntasks              : 2\n" +
	"srun: verbose             : 1\n" +
	"srun: -------------------- --------------------\n" +
	"srun: end of defined options\n" +
	"srun: jobid 21781: nodes(1):`cpu001', cpu counts: 2(x1)\n" +
	"srun: launch/slurm: launch_p_step_launch: CpuBindType=(null type)\n" +
	"srun: launching StepId=21781.3 on host cpu001, 2 tasks: [0-1]\n" +
	"srun: route/default: init: route default plugin loaded\n" +
	"srun: launch/slurm: _task_start: Node cpu001, 2 tasks started\n"

// TestS16HSrunVerboseStepLines: srun -v inside an allocation prints, after
// its option block, what the peer's printed (srun -v -n2 true in job
// 21781; srun -v -n2 bash -c "exit 3" in job 21868): the job's nodes and
// CPU counts, each node's launch and start, and each exit notification
// before the Completed line of a clean end or the error line of a bad one.
func TestS16HSrunVerboseStepLines(t *testing.T) {
	one := api.StepLayout{NodeList: "cpu001", Tasks: 2, Nodes: []api.StepNode{{Node: "cpu001", TaskIDs: []int{0, 1}}}}
	env := []string{"SLURM_JOB_ID=21781", "SLURM_JOB_NODELIST=cpu001", "SLURM_JOB_CPUS_PER_NODE=2", "SLURM_JOB_NUM_NODES=1"}
	tests := map[string]struct {
		exit      job.ExitCode
		code      int
		state     job.State
		wantLines string
	}{
		"clean end": {state: job.Completed, wantLines: "" +
			"srun: launch/slurm: _task_finish: Received task exit notification for 2 tasks of StepId=21781.3 (status=0x0000).\n" +
			"srun: launch/slurm: _task_finish: cpu001: tasks 0-1: Completed\n"},
		"exit 3": {exit: job.ExitCode{Status: 3}, code: 3, state: job.Failed, wantLines: "" +
			"srun: launch/slurm: _task_finish: Received task exit notification for 2 tasks of StepId=21781.3 (status=0x0300).\n" +
			"srun: error: cpu001: tasks 0-1: Exited with exit code 3\n"},
		"killed": {exit: job.ExitCode{Signal: 9}, code: 137, state: job.Failed, wantLines: "" +
			"srun: launch/slurm: _task_finish: Received task exit notification for 2 tasks of StepId=21781.3 (status=0x0009).\n" +
			"srun: error: cpu001: tasks 0-1: Killed\n" +
			"srun: Force Terminated StepId=21781.3\n"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			runSrunCase(t, srunCase{
				env: env, args: []string{"-v", "-n2", "true"}, layout: one,
				script: []func(n *fakeNode){func(n *fakeNode) {
					n.exit(api.StepIOExit{Tasks: []int{0, 1}, ExitCode: tt.exit})
					n.done()
				}},
				wantCode: tt.code, wantState: tt.state, wantExit: tt.exit,
				wantStderr: srunVerboseBlock + tt.wantLines,
			})
		})
	}
}
