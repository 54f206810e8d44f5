package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestScontrolRequeueFlags: scontrol requeue's leading flags as Slurm
// 22.05's scontrol reads them (parse_requeue_flags), and what the peer
// prints when a flag is misspelt: "requeuehold State=Foo 21581" reports
// "Invalid job id specified for job State=Foo" and goes on with the job.
func TestScontrolRequeueFlags(t *testing.T) {
	jobs := []api.Job{{JobID: 12, Name: "x", JobState: job.Running, TimeLimit: 3600}}
	tests := map[string]struct {
		args   []string
		want   []api.RequeueRequest
		stderr string
		code   int
	}{
		"plain": {args: []string{"requeue", "12"}, want: []api.RequeueRequest{{JobIDs: []string{"12"}}}},
		"Incomplete": {args: []string{"requeue", "Incomplete", "12"},
			want: []api.RequeueRequest{{JobIDs: []string{"12"}, Incomplete: true}}},
		"a prefix of incomplete, any case": {args: []string{"requeue", "INC", "12"},
			want: []api.RequeueRequest{{JobIDs: []string{"12"}, Incomplete: true}}},
		"State=SpecialExit": {args: []string{"requeue", "State=SpecialExit", "12"},
			want: []api.RequeueRequest{{JobIDs: []string{"12"}, SpecialExit: true}}},
		"state=se with requeuehold": {args: []string{"requeuehold", "state=se", "12"},
			want: []api.RequeueRequest{{JobIDs: []string{"12"}, Hold: true, SpecialExit: true}}},
		"both flags": {args: []string{"requeue", "State=SE", "incomplete", "12"},
			want: []api.RequeueRequest{{JobIDs: []string{"12"}, Incomplete: true, SpecialExit: true}}},
		"misspelt flag is a job id": {args: []string{"requeuehold", "State=Foo", "12"},
			want:   []api.RequeueRequest{{JobIDs: []string{"12"}, Hold: true}},
			stderr: "Invalid job id specified for job State=Foo\n", code: 1},
		"a flag after a job is a job id": {args: []string{"requeue", "12", "Incomplete"},
			want:   []api.RequeueRequest{{JobIDs: []string{"12"}}},
			stderr: "Invalid job id specified for job Incomplete\n", code: 1},
		"flags only: nothing to do": {args: []string{"requeue", "Incomplete"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{jobs: jobs}
			te := newTestEnv(f, 1795950000)
			code := Scontrol(context.Background(), te.Env, tc.args)
			if code != tc.code || te.stderr.String() != tc.stderr || te.stdout.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q", code, te.stdout, te.stderr, tc.code, tc.stderr)
			}
			if diff := cmp.Diff(tc.want, f.requeues); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}

// TestScontrolShowSpecialExit: a job requeue State=SpecialExit put back
// shows as the peer printed it ("JobState=SPECIAL_EXIT
// Reason=job_requeued_in_special_exit_state").
func TestScontrolShowSpecialExit(t *testing.T) {
	jobs := []api.Job{{JobID: 12, Name: "x", JobState: job.Pending, SpecialExit: true, Hold: true,
		StateReason: job.ReasonJobHeldUser, StateDescription: "job requeued in special exit state",
		TimeLimit: 600, BatchFlag: true, Requeue: true, Restarts: 1}}
	f := &fakeController{jobs: jobs}
	te := newTestEnv(f, 1795950000)
	if code := Scontrol(context.Background(), te.Env, []string{"show", "job", "12"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	const want = "   JobState=SPECIAL_EXIT Reason=job_requeued_in_special_exit_state Dependency=(null)"
	if !strings.Contains(te.stdout.String(), want+"\n") {
		t.Errorf("show job: no line %q in\n%s", want, te.stdout)
	}
}
