package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestSplitJobIDsArray: commas inside brackets belong to a task list.
func TestSplitJobIDsArray(t *testing.T) {
	cases := map[string]struct {
		in   string
		want []string
	}{
		"plain list":             {"12,13", []string{"12", "13"}},
		"bracketed task list":    {"12_[1,3]", []string{"12_[1,3]"}},
		"task list then a job":   {"12_[1,3-5],14_2,15", []string{"12_[1,3-5]", "14_2", "15"}},
		"empty pieces dropped":   {",12,,13,", []string{"12", "13"}},
		"unclosed bracket stays": {"12_[1,3", []string{"12_[1,3"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, splitJobIDs(tc.in)); diff != "" {
				t.Errorf("splitJobIDs(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

// TestScontrolArrayAnswers: scontrol prints the controller's per-task
// groups of an array operation as the Slurm 22.05 peer does ("requeue
// 17387_[1-2],17387_4", "hold 17387_[1-3,9]", "hold 17380_[2,5]"): one
// "ID_TASKS: MESSAGE" line per group, "No error" for a group that went
// through when another failed, and no "slurm_suspend error" line.
func TestScontrolArrayAnswers(t *testing.T) {
	pending := api.NewError(api.CodeJobPending)
	invalid := api.NewError(api.CodeInvalidJobID)
	finished := api.NewError(api.CodeJobFinished)
	cases := map[string]struct {
		args    []string
		results map[string]api.JobResult
		want    string
		code    int
	}{
		"requeue of two references": {
			args: []string{"requeue", "12_[1-2],12_4"},
			results: map[string]api.JobResult{
				"12_[1-2]": {Error: pending, Tasks: []api.TaskOutcome{{ArrayJobID: 12, Tasks: "1-2", Error: pending}}},
				"12_4":     {Error: pending, Tasks: []api.TaskOutcome{{ArrayJobID: 12, Tasks: "0,3-5", Error: pending}}},
			},
			want: "12_1-2: Job is pending execution\n12_0,3-5: Job is pending execution\n",
			code: 1,
		},
		"hold with a missing task": {
			args: []string{"hold", "12_[1-3,9]"},
			results: map[string]api.JobResult{"12_[1-3,9]": {Error: invalid, Tasks: []api.TaskOutcome{
				{ArrayJobID: 12, Tasks: "1-3"}, {ArrayJobID: 12, Tasks: "9", Error: invalid}}}},
			want: "12_1-3: No error\n12_9: Invalid job id specified\n",
			code: 1,
		},
		"hold of finished tasks": {
			args: []string{"hold", "12_[2,5]"},
			results: map[string]api.JobResult{"12_[2,5]": {Error: finished, Tasks: []api.TaskOutcome{
				{ArrayJobID: 12, Tasks: "2,5", Error: finished}}}},
			want: "12_2,5: Job has already finished\n",
			code: 1,
		},
		"hold that went through": {
			args:    []string{"hold", "12_[1,3]"},
			results: map[string]api.JobResult{"12_[1,3]": {Tasks: []api.TaskOutcome{{ArrayJobID: 12, Tasks: "1,3"}}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{now: 1795950000, jobs: scancelJobs()}
			var sent []string
			f.results = func(ids []string) []api.JobResult {
				var out []api.JobResult
				for _, id := range ids {
					sent = append(sent, id)
					r := tc.results[id]
					r.JobID = id
					out = append(out, r)
				}
				return out
			}
			te := newTestEnv(f, 1795950000)
			code := Scontrol(context.Background(), te.Env, tc.args)
			if diff := cmp.Diff(tc.want, te.stdout.String()+te.stderr.String()); diff != "" {
				t.Errorf("scontrol %q output (-want +got):\n%s", tc.args, diff)
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			if len(sent) != len(tc.results) {
				t.Errorf("sent %q, want one reference per key of %v", sent, tc.results)
			}
		})
	}
}
