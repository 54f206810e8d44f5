package command

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLikeMatch(t *testing.T) {
	tests := []struct {
		s, pat string
		want   bool
	}{
		{"gpu&ib", "%ib%", true},
		{"gpu&ib", "%gpu&ib%", true},
		{"gpu&ib", "%ibx%", false},
		{"rack-1", "%rack_1%", true},
		{"rack1", "%rack_1%", false},
		{"a100&ib", "%a%ib%", true},
		{"ib&a100", "%a%ib%", false},
		{"rack_1", `%rack\_1%`, true},
		{"rack-1", `%rack\_1%`, false},
		{"", "%%", true},
		{"abc", "abc", true},
		{"abcd", "abc", false},
		{"aab", "%ab", true},
	}
	for _, tc := range tests {
		if got := likeMatch([]rune(tc.s), []rune(tc.pat)); got != tc.want {
			t.Errorf("%q LIKE %q = %v, want %v", tc.s, tc.pat, got, tc.want)
		}
	}
}

// TestSacctConstraintFilter: -C selects, as Slurm 22.05's slurmdbd does
// (as_mysql_jobacct_process.c), the jobs whose stored constraints
// contain every item as a substring (LIKE '%item%', no case with the
// database's default collation); an empty item selects jobs without
// constraints; several -C options add to one list. The peer has no
// slurmdbd, so the expectations follow the source.
func TestSacctConstraintFilter(t *testing.T) {
	constraints := map[uint32]string{12: "gpu&ib", 13: "[a100|h100]&IB", 15: "", 14: "", 16: "rack-1"}
	tests := map[string]struct {
		args []string
		want string
	}{
		"one item":         {args: []string{"-C", "ib"}, want: "12\n13\n"},
		"every item":       {args: []string{"-C", "gpu,ib"}, want: "12\n"},
		"options add up":   {args: []string{"--constraints=ib", "-C", "h100"}, want: "13\n"},
		"substring":        {args: []string{"-C", "00|h"}, want: "13\n"},
		"case":             {args: []string{"-C", "GPU"}, want: "12\n"},
		"none":             {args: []string{"-C", ""}, want: "14_3\n14_[4-9]\n"},
		"wildcard":         {args: []string{"-C", "rack_1"}, want: "16\n"},
		"nothing selected": {args: []string{"-C", "ib,rack"}, want: ""},
		"host list":        {args: []string{"-C", "rack-[1]"}, want: "16\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			jobs := acctJobs()
			for i := range jobs {
				jobs[i].Constraints = constraints[jobs[i].JobID]
			}
			te := newTestEnv(&fakeController{acct: jobs}, 1795950000)
			args := append([]string{"-X", "-n", "-P", "-o", "jobid", "-S", "2026-11-29"}, tc.args...)
			if code := Sacct(context.Background(), te.Env, args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSacctConstraintFilterJSON: --json selects the same jobs.
func TestSacctConstraintFilterJSON(t *testing.T) {
	jobs := acctJobs()
	jobs[0].Constraints = "gpu&ib"
	te := newTestEnv(&fakeController{acct: jobs}, 1795950000)
	if code := Sacct(context.Background(), te.Env, []string{"--json", "-X", "-S", "2026-11-29", "-C", "ib"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	var doc struct {
		Jobs []struct {
			JobID uint32 `json:"job_id"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal(te.stdout.Bytes(), &doc); err != nil || len(doc.Jobs) != 1 || doc.Jobs[0].JobID != 12 {
		t.Errorf("--json -C ib: %v, %s", err, te.stdout)
	}
}
