package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSacctPrintRules: Slurm 22.05's print_fields rules, one field kind
// at a time. A string cut to its width ends in "+"; a header name and a
// date are cut short (a date even in parsable output, its buffer being
// the field's size); a number or duration overflows its field. -o lists
// add up, then -b's fields; SACCT_FORMAT stands in for no list; a field's
// width is the last one given for it; a step's Eligible is its start.
func TestSacctPrintRules(t *testing.T) {
	const now = 1795950000 + 3600
	cases := map[string]struct {
		env  []string
		args []string
		want string
	}{
		"numbers and durations overflow, names cut plain": {
			args: []string{"-X", "-j", "12", "-o", "jobname%3,ncpus%1,elapsed%4,cputimeraw%2,priority%-1"},
			want: "Job N Elap CP P \n--- - ---- -- - \ntr+ 16 01:00:00 57600 0 \n",
		},
		"dates cut to the width, parsable too": {
			args: []string{"-X", "-j", "12", "-P", "-o", "submit%10,end%4,jobid"},
			want: "Submit|End|JobID\n2026-11-29|2026|12\n",
		},
		"dates cut when aligned": {
			args: []string{"-X", "-j", "12", "-o", "start%-13,jobid%2"},
			want: "Start         Jo \n------------- -- \n2026-11-29T10 12 \n",
		},
		"format lists add up, then brief": {
			args: []string{"-X", "-j", "12", "-o", "jobid", "--format=user", "-b", "-n"},
			want: "12               alice 12            COMPLETED      0:0 \n",
		},
		"SACCT_FORMAT without a list": {
			env:  []string{"SACCT_FORMAT=jobid%5,state"},
			args: []string{"-X", "-j", "12", "-n"},
			want: "   12  COMPLETED \n",
		},
		"a list overrides SACCT_FORMAT": {
			env:  []string{"SACCT_FORMAT=jobid%5,state"},
			args: []string{"-X", "-j", "12", "-n", "-o", "state%4"},
			want: "COM+ \n",
		},
		"a field's last width wins": {
			args: []string{"-X", "-j", "12", "-n", "-o", "state%4,jobid,state%12"},
			want: "   COMPLETED 12              COMPLETED \n",
		},
		"step eligible is its start": {
			args: []string{"-j", "12", "-P", "-n", "-o", "jobid,eligible"},
			want: "12|2026-11-29T10:00:00\n12.batch|2026-11-29T10:00:10\n",
		},
		"time limit exactly -k": {
			args: []string{"-X", "-P", "-n", "-o", "jobid", "-k", "60"},
			want: "14_3\n14_[4-9]\n",
		},
		"time limit between -k and -K": {
			args: []string{"-X", "-P", "-n", "-o", "jobid", "-k", "10", "-K", "2:00:00"},
			want: "12\n14_3\n14_[4-9]\n16\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			jobs := acctJobs()
			if tc.args[1] == "12" || tc.args[1] == "-j" {
				jobs = jobs[:1]
			}
			jobs[0].Steps[0].StartTime = 1795946410
			te := newTestEnv(&fakeController{acct: jobs}, now)
			te.Env.Environ = append(te.Env.Environ, tc.env...)
			if code := Sacct(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSacctAllFields: "a", "al" and "all" name every field (sacct
// compares "ALL" over the token's length); "%N" after them sets every
// width.
func TestSacctAllFields(t *testing.T) {
	for _, tok := range []string{"a", "Al", "ALL%3"} {
		pr := &acctPrinter{}
		if code := pr.parseFormat(newOutput(newTestEnv(&fakeController{}, 0).Env, "sacct"), tok); code != 0 {
			t.Fatalf("%s: exit %d", tok, code)
		}
		if len(pr.fields) != len(acctCols) {
			t.Errorf("%s: %d fields, want %d", tok, len(pr.fields), len(acctCols))
		}
	}
	pr := &acctPrinter{}
	pr.parseFormat(newOutput(newTestEnv(&fakeController{}, 0).Env, "sacct"), "ALL%3")
	if pr.fields[0].width != 3 {
		t.Errorf("ALL%%3 width = %d, want 3", pr.fields[0].width)
	}
}
