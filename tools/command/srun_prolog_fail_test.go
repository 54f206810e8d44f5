package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// prologFailedStep is the controller's answer to a step launched after the
// job's node Prolog failed.
var prologFailedStep = &api.Error{Code: api.CodePrologFailed, Message: "Job prolog failed",
	Detail: "Task launch for StepId=7.0 failed on node n01: Job prolog failed"}

// TestSrunPrologFailed: a failed node Prolog as the peer's srun reports it
// (Slurm 22.05.8, Prolog exiting 1 for the job, srun -w cpu002 true):
// the allocating srun's notice of the failure, the launch failure, the
// abort, exit status 182 (ESLURMD_PROLOG_FAILED); inside an allocation
// the notice is salloc's, not srun's.
func TestSrunPrologFailed(t *testing.T) {
	tests := map[string]srunCase{
		"srun holding the allocation": {
			args: []string{"true"}, waits: []api.Allocation{grantedAlloc}, create: prologFailedStep,
			wantCode: 182,
			wantStderr: "srun: Prolog failure on node n01\n" +
				"srun: error: Task launch for StepId=7.0 failed on node n01: Job prolog failed\n" +
				"srun: error: Application launch failed: Job prolog failed\nsrun: Job step aborted\n",
		},
		"srun inside salloc": {
			env: insideJobEnv, args: []string{"true"}, create: prologFailedStep,
			wantCode: 182,
			wantStderr: "srun: error: Task launch for StepId=7.0 failed on node n01: Job prolog failed\n" +
				"srun: error: Application launch failed: Job prolog failed\nsrun: Job step aborted\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) { runSrunCase(t, tc) })
	}
}

// TestSallocPrologFailedLines: salloc's lines when a node Prolog cancels
// its job under its command, as the peer's salloc prints them (salloc -w
// cpu002 srun true): the failure at once, the relinquishing and the
// revocation once the command ended. Other ends keep their one line.
func TestSallocPrologFailedLines(t *testing.T) {
	tests := map[string]struct {
		job       api.Job
		now, then string
	}{
		"a failed node Prolog": {
			job:  api.Job{JobID: 7, JobState: job.Cancelled, ExitCode: job.ExitCode{Signal: 54}, BatchHost: "n01"},
			now:  "salloc: Prolog failure on node n01\n",
			then: "salloc: Relinquishing job allocation 7\nsalloc: Job allocation 7 has been revoked.\n"},
		"scancel": {
			job: api.Job{JobID: 7, JobState: job.Cancelled, BatchHost: "n01"},
			now: "salloc: Job allocation 7 has been revoked.\n"},
		"the time limit": {
			job: api.Job{JobID: 7, JobState: job.Timeout, BatchHost: "n01"},
			now: "salloc: Job 7 has exceeded its time limit and its allocation has been revoked.\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{jobs: []api.Job{tc.job}}
			now, then := revokedLines(context.Background(), f, 7)
			if diff := cmp.Diff(tc.now+"|"+tc.then, now+"|"+then); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSacctPrologFailedStep: a batch step that never ran (its node's
// Prolog failed) has a blank ExitCode, as the accounting peer prints it:
// "237 CANCELLED by 0 0:0" over "237.batch CANCELLED" and nothing more.
func TestSacctPrologFailedStep(t *testing.T) {
	by := uint32(0)
	f := &fakeController{acct: []api.AcctJob{{JobID: 237, Name: "N-fail3", UserName: "root", Partition: "normal",
		State: job.Cancelled, CancelledBy: &by, SubmitTime: 1795946400, StartTime: 1795946401, EndTime: 1795946401,
		Nodes: "cpu002", NodeCount: 1, CPUs: 1, Steps: []api.AcctStep{{StepID: "batch", Name: "batch",
			State: job.Cancelled, StartTime: 1795946401, EndTime: 1795946401, Nodes: "cpu002", NodeCount: 1, CPUs: 1,
			NoExitCode: true}}}}}
	te := newTestEnv(f, 1795950000)
	if code := Sacct(context.Background(), te.Env, []string{"-j", "237", "-o", "jobid,jobname,state%20,exitcode"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	want := "JobID           JobName                State ExitCode \n" +
		"------------ ---------- -------------------- -------- \n" +
		"237             N-fail3       CANCELLED by 0      0:0 \n" +
		"237.batch         batch            CANCELLED          \n"
	if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
		t.Errorf("sacct (-want +got):\n%s", diff)
	}
}
