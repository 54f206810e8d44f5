package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// suspendFake answers as a controller does for job 12 (pending), 13
// (running: suspend succeeds, resume is refused), 14 (suspended: both
// succeed, as in Slurm 22.05); other ids are unknown.
type suspendFake struct {
	*fakeController
	sent []api.SuspendRequest
}

func (f *suspendFake) Suspend(_ context.Context, req *api.SuspendRequest) (*api.JobResults, error) {
	f.sent = append(f.sent, *req)
	out := &api.JobResults{}
	for _, id := range req.JobIDs {
		r := api.JobResult{JobID: id}
		switch {
		case id == "12":
			r.Error = api.NewError(api.CodeJobPending)
		case id == "13" && req.Resume:
			r.Error = api.NewError(api.CodeJobNotSuspended)
		case id == "13", id == "14":
		default:
			r.Error = api.NewError(api.CodeUnexpectedMessage)
		}
		out.Results = append(out.Results, r)
	}
	return out, nil
}

// TestSuspendCommand: arguments, messages and exit statuses as the peer's
// scontrol (test/testdata/suspend-peer.txt), and what is sent.
func TestSuspendCommand(t *testing.T) {
	tests := map[string]struct {
		args       []string
		wantCode   int
		wantStderr string
		wantSent   []api.SuspendRequest
	}{
		"no job":             {[]string{"suspend"}, 1, "too few arguments for keyword:suspend\n", nil},
		"resume without job": {[]string{"resume"}, 1, "too few arguments for keyword:resume\n", nil},
		"a running job":      {[]string{"suspend", "13"}, 0, "", []api.SuspendRequest{{JobIDs: []string{"13"}}}},
		"a suspended job":    {[]string{"suspend", "14"}, 0, "", []api.SuspendRequest{{JobIDs: []string{"14"}}}},
		"a pending job": {[]string{"suspend", "12"}, 1, "Job is pending execution for job 12\n",
			[]api.SuspendRequest{{JobIDs: []string{"12"}}}},
		"resume of a running job": {[]string{"resume", "13"}, 1, "Job is not suspended for job 13\n",
			[]api.SuspendRequest{{JobIDs: []string{"13"}, Resume: true}}},
		"an unknown job": {[]string{"suspend", "999999"}, 1, "Unexpected message received for job 999999\n",
			[]api.SuspendRequest{{JobIDs: []string{"999999"}}}},
		"a list with an unknown job": {[]string{"suspend", "13,999999"}, 1, "Unexpected message received for job 999999\n",
			[]api.SuspendRequest{{JobIDs: []string{"13", "999999"}}}},
		"two arguments": {[]string{"resume", "14", "999999"}, 1, "Unexpected message received for job 999999\n",
			[]api.SuspendRequest{{JobIDs: []string{"14"}, Resume: true}, {JobIDs: []string{"999999"}, Resume: true}}},
		"not a job id":  {[]string{"suspend", "abc"}, 1, "Invalid job id specified for job abc\n", nil},
		"JobId= prefix": {[]string{"suspend", "JobId=13"}, 0, "", []api.SuspendRequest{{JobIDs: []string{"13"}}}},
		"quiet":         {[]string{"-Q", "suspend", "12"}, 1, "", []api.SuspendRequest{{JobIDs: []string{"12"}}}},
		"abbreviated":   {[]string{"su", "13"}, 0, "", []api.SuspendRequest{{JobIDs: []string{"13"}}}},
		"resume as res": {[]string{"res", "14"}, 0, "", []api.SuspendRequest{{JobIDs: []string{"14"}, Resume: true}}},
		"upper case":    {[]string{"SUSPEND", "13"}, 0, "", []api.SuspendRequest{{JobIDs: []string{"13"}}}},
		"re is no verb": {[]string{"re", "13"}, 1, "invalid keyword: re\n", nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &suspendFake{fakeController: &fakeController{}}
			code, stdout, stderr := scontrolWith(f, f.fakeController, tc.args...)
			if code != tc.wantCode || stderr != tc.wantStderr || stdout != "" {
				t.Errorf("scontrol %q: exit %d, stdout %q, stderr %q; want exit %d, stderr %q",
					tc.args, code, stdout, stderr, tc.wantCode, tc.wantStderr)
			}
			if diff := cmp.Diff(tc.wantSent, f.sent); diff != "" {
				t.Errorf("sent (-want +got):\n%s", diff)
			}
		})
	}
}
