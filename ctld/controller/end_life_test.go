package controller

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestEndStateOfLife: the state and reason of a batch script's end, as the
// Slurm 22.05 peer shows them in `scontrol show job` (JobState=, Reason=).
func TestEndStateOfLife(t *testing.T) {
	type result struct {
		State  job.State
		Reason job.Reason
	}
	tests := map[string]struct {
		ev   api.JobEvent
		want result
	}{
		"exit 0 completes": {
			ev: api.JobEvent{}, want: result{job.Completed, job.ReasonNone}},
		"exit 3 is FAILED NonZeroExitCode (ExitCode=3:0)": {
			ev:   api.JobEvent{ExitCode: job.ExitCode{Status: 3}},
			want: result{job.Failed, job.ReasonNonZeroExitCode}},
		"kill -9 $$ is FAILED JobLaunchFailure (ExitCode=0:9)": {
			ev:   api.JobEvent{ExitCode: job.ExitCode{Signal: 9}},
			want: result{job.Failed, job.ReasonJobLaunchFailure}},
		"kill -SEGV $$ is FAILED JobLaunchFailure (ExitCode=0:11)": {
			ev:   api.JobEvent{ExitCode: job.ExitCode{Signal: 11}},
			want: result{job.Failed, job.ReasonJobLaunchFailure}},
		"exec of a missing program is FAILED NonZeroExitCode (ExitCode=127:0)": {
			ev:   api.JobEvent{ExitCode: job.ExitCode{Status: 127}},
			want: result{job.Failed, job.ReasonNonZeroExitCode}},
		"killed by the OOM killer": {
			ev:   api.JobEvent{ExitCode: job.ExitCode{Signal: 9}, OOM: true},
			want: result{job.OutOfMemory, job.ReasonOutOfMemory}},
		"killed at its time limit": {
			ev:   api.JobEvent{ExitCode: job.ExitCode{Signal: 15}, TimedOut: true},
			want: result{job.Timeout, job.ReasonTimeLimit}},
		"scancel": {
			ev:   api.JobEvent{ExitCode: job.ExitCode{Signal: 15}, Terminated: api.TerminateCancel},
			want: result{job.Cancelled, job.ReasonNone}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			st, reason := endStateOf(&tc.ev)
			if diff := cmp.Diff(tc.want, result{st, reason}); diff != "" {
				t.Errorf("end state (-want +got):\n%s", diff)
			}
		})
	}
}
