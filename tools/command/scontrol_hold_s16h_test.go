package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestS16HHoldTaskOfPlainJob: the peer's scontrol hold/release J_5, J not
// an array, prints "J_5: Invalid job id specified" and no
// "slurm_suspend error" line; a plain id keeps both lines.
func TestS16HHoldTaskOfPlainJob(t *testing.T) {
	invalid := api.NewError(api.CodeInvalidJobID)
	cases := map[string]struct {
		args []string
		want string
	}{
		"release of a task": {[]string{"release", "21840_5"}, "21840_5: Invalid job id specified\n"},
		"hold of a task":    {[]string{"hold", "21840_5"}, "21840_5: Invalid job id specified\n"},
		"hold of a job id": {[]string{"hold", "9999999"},
			"Invalid job id specified for job 9999999\nslurm_suspend error: Invalid job id specified\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{now: 1795950000, jobs: scancelJobs()}
			f.results = func(ids []string) []api.JobResult {
				var out []api.JobResult
				for _, id := range ids {
					out = append(out, api.JobResult{JobID: id, Error: invalid})
				}
				return out
			}
			te := newTestEnv(f, 1795950000)
			code := Scontrol(context.Background(), te.Env, tc.args)
			if diff := cmp.Diff(tc.want, te.stdout.String()+te.stderr.String()); diff != "" {
				t.Errorf("scontrol %q output (-want +got):\n%s", tc.args, diff)
			}
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
		})
	}
}
