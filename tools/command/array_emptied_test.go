package command

import (
	"context"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestArrayRecordHoldingNoTask: an array record whose pending tasks were
// all cancelled by name holds no task; the peer's squeue shows its bare id
// (also with -r) and N/A, its scontrol slurmctld's NO_VAL.
func TestArrayRecordHoldingNoTask(t *testing.T) {
	f := &fakeController{now: peerTimeNow, jobs: []api.Job{{JobID: 14341, ArrayJobID: 14341, Name: "wrap",
		UserName: "root", Partition: "normal", JobState: job.Cancelled, NodeCount: 1, SubmitTime: peerTimeNow}}}
	for _, args := range [][]string{{"-h", "-t", "all", "-o", "%i|%K|%F"}, {"-h", "-r", "-t", "all", "-o", "%i|%K|%F"}} {
		te := newTestEnv(f, peerTimeNow)
		if code := Squeue(context.Background(), te.Env, args); code != 0 {
			t.Fatalf("squeue %v exit %d: %s", args, code, te.stderr)
		}
		if got, want := te.stdout.String(), "14341|N/A|14341\n"; got != want {
			t.Errorf("squeue %v: %q, want %q", args, got, want)
		}
	}
	te := newTestEnv(f, peerTimeNow)
	if code := Scontrol(context.Background(), te.Env, []string{"show", "job", "14341"}); code != 0 {
		t.Fatalf("scontrol exit %d: %s", code, te.stderr)
	}
	if want := "JobId=14341 ArrayJobId=14341 ArrayTaskId=4294967294 JobName=wrap\n"; !strings.HasPrefix(te.stdout.String(), want) {
		t.Errorf("scontrol show job starts %q, want %q", te.stdout.String(), want)
	}
}
