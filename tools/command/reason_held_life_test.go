package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestReasonHeldDescLife: a job requeued held shows the description as its
// reason, as the Slurm 22.05 peer's squeue %r ("job requeued in held
// state") and scontrol (Reason=job_requeued_in_held_state) do.
func TestReasonHeldDescLife(t *testing.T) {
	tests := map[string]struct {
		j    api.Job
		want string
	}{
		"requeued held": {api.Job{JobState: job.Pending, StateReason: job.ReasonJobHeldAdmin,
			StateDescription: "job requeued in held state"}, "job requeued in held state"},
		"held by the user": {api.Job{JobState: job.Pending, StateReason: job.ReasonJobHeldUser,
			StateDescription: "job requeued in held state"}, "job requeued in held state"},
		"too few nodes up": {api.Job{JobState: job.Pending, StateReason: job.ReasonResources,
			StateDescription: job.DescNodesUnavailable}, job.DescNodesUnavailable},
		"plain hold": {api.Job{JobState: job.Pending, StateReason: job.ReasonJobHeldAdmin}, "JobHeldAdmin"},
		"launch failure text stays Loam's": {api.Job{JobState: job.Failed, StateReason: job.ReasonJobLaunchFailure,
			StateDescription: "output directory /x missing"}, "JobLaunchFailure"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, reasonText(&tc.j)); diff != "" {
				t.Errorf("reason (-want +got):\n%s", diff)
			}
			if name == "requeued held" {
				if got := underscored(reasonText(&tc.j)); got != "job_requeued_in_held_state" {
					t.Errorf("scontrol form %q", got)
				}
			}
		})
	}
}
