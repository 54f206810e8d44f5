package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// observeFake adds the observability calls to the fake controller.
type observeFake struct {
	*fakeController
	sugg   *api.SuggestionsResponse
	tokReq []api.WebTokenRequest
	err    error
}

func (o *observeFake) Suggestions(context.Context) (*api.SuggestionsResponse, error) {
	return o.sugg, o.err
}

func (o *observeFake) WebToken(_ context.Context, req *api.WebTokenRequest) (*api.WebTokenResponse, error) {
	o.tokReq = append(o.tokReq, *req)
	if o.err != nil {
		return nil, o.err
	}
	return &api.WebTokenResponse{Token: "abc.def", Path: "/ui/"}, nil
}

func runScontrol(t *testing.T, o *observeFake, args ...string) (int, string, string) {
	t.Helper()
	return scontrolWith(o, o.fakeController, args...)
}

// scontrolWith runs scontrol against ctl, a fake controller built on fc,
// and returns its exit status, standard output and standard error.
func scontrolWith(ctl Controller, fc *fakeController, args ...string) (int, string, string) {
	te := newTestEnv(fc, 1795950000)
	te.Dial = func(context.Context) (Controller, error) { return ctl, nil }
	code := Scontrol(context.Background(), te.Env, args)
	return code, te.stdout.String(), te.stderr.String()
}

func TestScontrolShowSuggestions(t *testing.T) {
	one := api.Suggestion{Rule: "queue-wait-rising", Subject: "batch", File: "slurm.conf", Line: "PartitionName=batch",
		Key: "AgingRate", From: "50", To: "100", Action: "raise AgingRate of partition batch in slurm.conf from 50 to 100",
		Why: "mean wait rose 3 h -> 9 h over 7 days"}
	tests := map[string]struct {
		resp       *api.SuggestionsResponse
		err        error
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		"one suggestion as a record": {
			resp: &api.SuggestionsResponse{Window: 7 * 86400, Suggestions: []api.Suggestion{one}},
			args: []string{"show", "suggestions"},
			wantStdout: "Suggestion=1 Rule=queue-wait-rising Subject=batch\n" +
				"   File=slurm.conf Line=PartitionName=batch Key=AgingRate From=50 To=100\n" +
				"   Action=raise AgingRate of partition batch in slurm.conf from 50 to 100\n" +
				"   Why=mean wait rose 3 h -> 9 h over 7 days\n\n",
		},
		"one line with -o": {
			resp: &api.SuggestionsResponse{Window: 7 * 86400, Suggestions: []api.Suggestion{one}},
			args: []string{"-o", "show", "sugg"},
			wantStdout: "Suggestion=1 Rule=queue-wait-rising Subject=batch File=slurm.conf Line=PartitionName=batch Key=AgingRate From=50 To=100 " +
				"Action=raise AgingRate of partition batch in slurm.conf from 50 to 100 Why=mean wait rose 3 h -> 9 h over 7 days\n",
		},
		"none": {
			resp:       &api.SuggestionsResponse{Window: 7 * 86400},
			args:       []string{"show", "suggestions"},
			wantStdout: "No suggestions: no rule fired over the last 7 days of history.\n",
		},
		"refused to a user": {
			err: api.NewError(api.CodeAccessDenied), args: []string{"show", "suggestions"}, wantCode: 1,
			wantStderr: "scontrol: error: Access/permission denied\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			o := &observeFake{fakeController: &fakeController{now: 1795950000}, sugg: tc.resp, err: tc.err}
			code, out, errOut := runScontrol(t, o, tc.args...)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d", code, tc.wantCode)
			}
			if diff := cmp.Diff(tc.wantStdout, out); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantStderr, errOut); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScontrolToken(t *testing.T) {
	tests := map[string]struct {
		args       []string
		wantReq    []api.WebTokenRequest
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		"a token for the caller":     {args: []string{"token"}, wantReq: []api.WebTokenRequest{{}}, wantStdout: "SLURM_JWT=abc.def\n"},
		"with a lifespan and a user": {args: []string{"token", "lifespan=3600", "username=alice"}, wantReq: []api.WebTokenRequest{{Lifespan: 3600, User: "alice"}}, wantStdout: "SLURM_JWT=abc.def\n"},
		"a bad lifespan":             {args: []string{"token", "lifespan=abc"}, wantCode: 1, wantStderr: "Invalid lifespan value: abc\n"},
		"an unknown option as Slurm": {args: []string{"token", "foo=bar"}, wantCode: 1, wantStderr: "Invalid option: `foo=bar`\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			o := &observeFake{fakeController: &fakeController{now: 1795950000}}
			code, out, errOut := runScontrol(t, o, tc.args...)
			if code != tc.wantCode || out != tc.wantStdout || errOut != tc.wantStderr {
				t.Errorf("got exit %d stdout %q stderr %q", code, out, errOut)
			}
			if diff := cmp.Diff(tc.wantReq, o.tokReq); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}
