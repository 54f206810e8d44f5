package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// topFake answers top and notify with the codes a controller gives for
// job 12 (pending), 13 (running), 14 (ended); other ids are unknown.
type topFake struct {
	*fakeController
	tops    []api.TopRequest
	notices []api.NotifyRequest
}

func (f *topFake) Top(_ context.Context, req *api.TopRequest) (*api.TopResponse, error) {
	f.tops = append(f.tops, *req)
	switch req.JobIDs {
	case "12", "13,12":
		return &api.TopResponse{}, nil
	case "13":
		return nil, api.NewError(api.CodeJobNotPending)
	}
	return nil, api.NewError(api.CodeInvalidJobID)
}

func (f *topFake) Notify(_ context.Context, req *api.NotifyRequest) error {
	f.notices = append(f.notices, *req)
	switch req.JobID {
	case 12, 13:
		return api.NewError(api.CodeDisabled)
	case 14:
		return api.NewError(api.CodeAlreadyDone)
	}
	return api.NewError(api.CodeInvalidJobID)
}

// TestTopCommand: arguments, messages and exit statuses as the peer's
// scontrol (test/testdata/top-notify-peer.txt), and what is sent.
func TestTopCommand(t *testing.T) {
	tests := map[string]struct {
		args       []string
		wantCode   int
		wantStderr string
		wantSent   []api.TopRequest
	}{
		"no job":                  {[]string{"top"}, 1, "too few arguments for keyword:top\n", nil},
		"two arguments":           {[]string{"top", "1", "2"}, 1, "too many arguments for keyword:top\n", nil},
		"an unknown job":          {[]string{"top", "99999"}, 1, "Invalid job id specified for job 99999\n", []api.TopRequest{{JobIDs: "99999"}}},
		"JobId= is taken off":     {[]string{"top", "JobId=,99999,"}, 1, "Invalid job id specified for job ,99999,\n", []api.TopRequest{{JobIDs: ",99999,"}}},
		"job= is taken off":       {[]string{"top", "job=12"}, 0, "", []api.TopRequest{{JobIDs: "12"}}},
		"upper case keyword":      {[]string{"TOP", "12"}, 0, "", []api.TopRequest{{JobIDs: "12"}}},
		"quiet":                   {[]string{"-Q", "top", "99999"}, 1, "", []api.TopRequest{{JobIDs: "99999"}}},
		"a running job":           {[]string{"top", "13"}, 1, "Job is no longer pending execution for job 13\n", []api.TopRequest{{JobIDs: "13"}}},
		"a list passes as is":     {[]string{"top", "13,12"}, 0, "", []api.TopRequest{{JobIDs: "13,12"}}},
		"two letters are not top": {[]string{"to", "12"}, 1, "invalid keyword: to\n", nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &topFake{fakeController: &fakeController{}}
			code, stdout, stderr := scontrolWith(f, f.fakeController, tc.args...)
			if code != tc.wantCode || stderr != tc.wantStderr || stdout != "" {
				t.Errorf("scontrol %q: exit %d, stdout %q, stderr %q; want exit %d, stderr %q",
					tc.args, code, stdout, stderr, tc.wantCode, tc.wantStderr)
			}
			if diff := cmp.Diff(tc.wantSent, f.tops); diff != "" {
				t.Errorf("sent (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNotifyCommand: as the peer's scontrol, including the message it
// prints without a newline for an id atoi reads as 0, and the errors it
// prints even with --quiet.
func TestNotifyCommand(t *testing.T) {
	tests := map[string]struct {
		args       []string
		wantCode   int
		wantStderr string
		wantSent   []api.NotifyRequest
	}{
		"no arguments":        {[]string{"notify"}, 1, "too few arguments for keyword:notify\n", nil},
		"no message":          {[]string{"notify", "99999"}, 1, "too few arguments for keyword:notify\n", nil},
		"quiet, no arguments": {[]string{"-Q", "notify"}, 1, "too few arguments for keyword:notify\n", nil},
		"an unknown job": {[]string{"notify", "99999", "hi"}, 1, "job notify failure: Invalid job id specified\n",
			[]api.NotifyRequest{{JobID: 99999, Message: "hi"}}},
		"quiet still prints": {[]string{"-Q", "notify", "99999", "hi"}, 1, "job notify failure: Invalid job id specified\n",
			[]api.NotifyRequest{{JobID: 99999, Message: "hi"}}},
		"n is notify": {[]string{"n", "99999", "hi"}, 1, "job notify failure: Invalid job id specified\n",
			[]api.NotifyRequest{{JobID: 99999, Message: "hi"}}},
		"not a number": {[]string{"notify", "abc", "hi"}, 1, "Invalid job_id abcjob notify failure: No error\n", nil},
		"job 0":        {[]string{"notify", "0", "hi"}, 1, "Invalid job_id 0job notify failure: No error\n", nil},
		"digits then letters read as the digits": {[]string{"notify", "12abc", "hi"}, 1,
			"job notify failure: Requested operation is presently disabled\n", []api.NotifyRequest{{JobID: 12, Message: "hi"}}},
		"the words are joined": {[]string{"notify", "12", "hello", "there"}, 1,
			"job notify failure: Requested operation is presently disabled\n", []api.NotifyRequest{{JobID: 12, Message: "hello there"}}},
		"an ended job": {[]string{"notify", "14", "hi"}, 1, "job notify failure: Job/step already completing or completed\n",
			[]api.NotifyRequest{{JobID: 14, Message: "hi"}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &topFake{fakeController: &fakeController{}}
			code, stdout, stderr := scontrolWith(f, f.fakeController, tc.args...)
			if code != tc.wantCode || stderr != tc.wantStderr || stdout != "" {
				t.Errorf("scontrol %q: exit %d, stdout %q, stderr %q; want exit %d, stderr %q",
					tc.args, code, stdout, stderr, tc.wantCode, tc.wantStderr)
			}
			if diff := cmp.Diff(tc.wantSent, f.notices); diff != "" {
				t.Errorf("sent (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzNotifyJobID: any argument reads as some id without a panic, and
// plain numbers read as themselves.
func FuzzNotifyJobID(f *testing.F) {
	for _, s := range []string{"12", "12abc", " 7", "-5", "+3", "abc", "", "99999999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id := atoiJobID(s)
		var n uint64
		for _, c := range []byte(s) {
			if c < '0' || c > '9' {
				return
			}
			n = n*10 + uint64(c-'0')
			if n > 1<<31-1 {
				return
			}
		}
		if s != "" && uint64(id) != n {
			t.Errorf("atoiJobID(%q) = %d, want %d", s, id, n)
		}
	})
}
