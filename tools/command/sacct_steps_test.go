package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseAcctJobsPeer: the -j entries the accounting peer refuses, with
// its fatal lines, and the ones it reads.
func TestParseAcctJobsPeer(t *testing.T) {
	tests := map[string]struct {
		refs []string
		sels []acctSel
		msg  string
	}{
		"12":            {[]string{"12"}, []acctSel{{12, -1, ""}}, ""},
		"12,,13":        {[]string{"12", "13"}, []acctSel{{12, -1, ""}, {13, -1, ""}}, ""},
		"7_2.batch":     {[]string{"7_2"}, []acctSel{{7, 2, "batch"}}, ""},
		"12.0.1":        {[]string{"12"}, []acctSel{{12, -1, "0"}}, ""},
		"12.00":         {[]string{"12"}, []acctSel{{12, -1, "0"}}, ""},
		"12.4294967294": {[]string{"12"}, []acctSel{{12, -1, ""}}, ""},
		"12.extern":     {[]string{"12"}, []acctSel{{12, -1, "extern"}}, ""},
		"12.x":          {msg: "Bad step specified: 12"},
		"12.":           {msg: "Bad step specified: 12"},
		"12.-1":         {msg: "Bad step specified: 12"},
		"12_a":          {msg: "Bad job array element specified: 12"},
		"12_[1-2]":      {msg: "Bad job array element specified: 12"},
		" 12":           {msg: "Bad job/step specified:  12"},
		"-5":            {msg: "Bad job/step specified: -5"},
		"abc":           {msg: "Bad job/step specified: abc"},
	}
	for in, tc := range tests {
		t.Run(in, func(t *testing.T) {
			refs, sels, msg := parseAcctJobs(in)
			if diff := cmp.Diff(tc, struct {
				refs []string
				sels []acctSel
				msg  string
			}{refs, sels, msg}, cmp.AllowUnexported(acctSel{}), cmp.AllowUnexported(tc)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSacctStepSelection: "-j JOB.STEP" prints only that step; the
// entries are read in order, so "12.0,12" is the job line and step 0
// while "12,12.0" is the whole job (the peer's output).
func TestSacctStepSelection(t *testing.T) {
	tests := map[string][]string{
		"12.0":          {"12.0"},
		"12.batch,12.1": {"12.batch", "12.1"},
		"12.0,12":       {"12", "12.0"},
		"12,12.0":       {"12", "12.batch", "12.0", "12.1"},
		"12.7":          {},
	}
	for list, want := range tests {
		t.Run(list, func(t *testing.T) {
			f := &fakeController{acct: peerAcctJobs()[1:2]}
			te := newTestEnv(f, 1796020500)
			if code := Sacct(context.Background(), te.Env, []string{"-n", "-P", "-o", "jobid", "-j", list}); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			got := strings.Fields(te.stdout.String())
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSacctBadJobFatal: a bad -j entry ends sacct before it asks the
// controller, with the peer's fatal line and exit 1.
func TestSacctBadJobFatal(t *testing.T) {
	f := &fakeController{acct: peerAcctJobs()}
	te := newTestEnv(f, 1796020500)
	if code := Sacct(context.Background(), te.Env, []string{"-j", "12_a"}); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if got, want := te.stderr.String(), "sacct: fatal: Bad job array element specified: 12\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	if len(f.acctQs) != 0 {
		t.Errorf("asked the controller: %+v", f.acctQs)
	}
}
