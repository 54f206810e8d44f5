package command

import (
	"context"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSqueueBadFormatAfterLoad: the peer's squeue parses its format once
// the jobs have loaded, so an unknown job is the only message, and a bad
// specification is reported after a load that worked.
func TestSqueueBadFormatAfterLoad(t *testing.T) {
	f := &fakeController{now: peerTimeNow, jobs: []api.Job{{JobID: 12, Name: "a", UserName: "root",
		Partition: "normal", JobState: job.Pending, NodeCount: 1, SubmitTime: peerTimeNow}}}
	cases := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"-j", "999999", "-o", "%-12W %i"}, 1, "slurm_load_jobs error: Invalid job id specified\n"},
		{[]string{"-h", "-j", "12", "-o", "%-12W %i"}, 0, "squeue: error: Invalid job format specification: -\n"},
	}
	for _, tc := range cases {
		te := newTestEnv(f, peerTimeNow)
		if code := Squeue(context.Background(), te.Env, tc.args); code != tc.code {
			t.Errorf("squeue %v: exit %d, want %d", tc.args, code, tc.code)
		}
		if got := te.stderr.String(); got != tc.stderr {
			t.Errorf("squeue %v: stderr %q, want %q", tc.args, got, tc.stderr)
		}
	}
}
