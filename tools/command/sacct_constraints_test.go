package command

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSacctConstraints: the Constraints field is the job's -C as
// slurmctld stored it (commas already '&'), on the job's line only
// (sacct's print.c fills it for JOB rows), a string field 19 wide cut
// with "+"; --json's "constraints" is the same text, "" without -C (the
// accounting column's default).
func TestSacctConstraints(t *testing.T) {
	cases := map[string]struct {
		constraint string
		args       []string
		want       string
	}{
		"parsable, steps empty": {constraint: "gpu&ib", args: []string{"-P", "-o", "jobid,constraints"},
			want: "JobID|Constraints\n12|gpu&ib\n12.batch|\n"},
		"aligned": {constraint: "[a100|h100]", args: []string{"-X", "-o", "jobid%5,constraints"},
			want: "JobID         Constraints \n----- ------------------- \n   12         [a100|h100] \n"},
		"cut to the width": {constraint: "(a100|h100)&rack1&ib", args: []string{"-X", "-n", "-o", "constraints"},
			want: "(a100|h100)&rack1&+ \n"},
		"none": {args: []string{"-X", "-n", "-P", "-o", "constraints,jobid"}, want: "|12\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			jobs := acctJobs()[:1]
			jobs[0].Constraints = tc.constraint
			te := newTestEnv(&fakeController{acct: jobs}, 1795950000)
			if code := Sacct(context.Background(), te.Env, append([]string{"-j", "12"}, tc.args...)); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
		})
	}

	for _, c := range []string{"[a100|h100]&ib", ""} {
		jobs := acctJobs()[:1]
		jobs[0].Constraints = c
		te := newTestEnv(&fakeController{acct: jobs}, 1795950000)
		if code := Sacct(context.Background(), te.Env, []string{"--json", "-j", "12"}); code != 0 {
			t.Fatalf("--json: exit %d: %s", code, te.stderr)
		}
		var doc struct {
			Jobs []struct {
				Constraints *string `json:"constraints"`
			} `json:"jobs"`
		}
		if err := json.Unmarshal(te.stdout.Bytes(), &doc); err != nil || len(doc.Jobs) != 1 ||
			doc.Jobs[0].Constraints == nil || *doc.Jobs[0].Constraints != c {
			t.Errorf("--json with -C %q: %v, %s", c, err, te.stdout)
		}
	}
}
