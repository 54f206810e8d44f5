package command

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
)

// TestScancelEndedArrayTasks: what the peer's scancel printed for an array
// of tasks 1-3 cancelled whole while pending (17875): a task it had is
// "already completing", and a range naming tasks it never had is an
// invalid job id, shown with -v only.
func TestScancelEndedArrayTasks(t *testing.T) {
	ended := func(ids []string) []api.JobResult {
		var out []api.JobResult
		for _, id := range ids {
			r := api.JobResult{JobID: id, Error: api.NewError(api.CodeAlreadyDone)}
			if id == "17875_[2-5]" {
				r.Tasks = []api.TaskOutcome{
					{ArrayJobID: 17875, Tasks: "2-3", Error: api.NewError(api.CodeAlreadyDone)},
					{ArrayJobID: 17875, Tasks: "4-5", Error: api.NewError(api.CodeInvalidJobID)},
				}
			}
			out = append(out, r)
		}
		return out
	}
	cases := map[string]scancelCase{
		"a task of the ended array, -v": {args: []string{"-v", "17875_2"}, results: ended,
			wantErr: "scancel: Terminating job 17875_2\n" +
				"scancel: error: Kill job error on job id 17875_2: Job/step already completing or completed\n",
			wantSent: [][]string{{"17875_2"}}},
		"a task of the ended array, quiet": {args: []string{"17875_2"}, results: ended, wantSent: [][]string{{"17875_2"}}},
		"a range past its end, -v": {args: []string{"-v", "17875_[2-5]"}, results: ended,
			wantErr: "scancel: Terminating job 17875_[2-5]\n" +
				"scancel: error: Kill job error on job id 17875_[2-5]: Invalid job id specified\n",
			wantSent: [][]string{{"17875_[2-5]"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) { runScancelCase(t, tc) })
	}
}
