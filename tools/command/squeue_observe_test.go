package command

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// observeJobs: alice (uid 1000) has two pending jobs and a running one;
// bob's jobs fill the queue around them.
func observeJobs() []api.Job {
	const now = 1795950000
	pend := func(id uint32, user string, uid uint32, part string, pos int, est int64) api.Job {
		return api.Job{JobID: id, Name: "j" + user, UserID: uid, UserName: user, Partition: part, JobState: job.Pending,
			StateReason: job.ReasonPriority, QueuePosition: pos, EstimatedStart: est, StartTime: est, NodeCount: 1,
			TimeLimit: 3600, SubmitTime: now - 600}
	}
	return []api.Job{
		pend(10, "bob", 1001, "normal", 1, now+600),
		pend(11, "alice", 1000, "normal", 2, now+2*3600),
		pend(12, "bob", 1001, "normal", 3, now+5*3600),
		pend(13, "bob", 1001, "batch", 1, 0),
		pend(14, "alice", 1000, "batch", 2, 0),
		{JobID: 15, Name: "jalice", UserID: 1000, UserName: "alice", Partition: "normal", JobState: job.Pending,
			StateReason: job.ReasonJobHeldUser, NodeCount: 1, SubmitTime: now - 60},
		{JobID: 9, Name: "run", UserID: 1000, UserName: "alice", Partition: "normal", JobState: job.Running,
			StartTime: now - 60, NodeCount: 1, Nodes: "n1", TimeLimit: 3600, SubmitTime: now - 120},
	}
}

func TestSqueueMeSaysWhereJobsStand(t *testing.T) {
	tests := map[string]struct {
		args       []string
		wantStdout string
		wantStderr string
	}{
		"a line per pending job on standard error, the table untouched": {
			args:       []string{"--me", "-o", "%i %t"},
			wantStdout: "JOBID ST\n14 PD\n11 PD\n15 PD\n9 R\n",
			wantStderr: "job 14 (jalice): position 2 of 2 in batch, expected start unknown\n" +
				"job 11 (jalice): position 2 of 3 in normal, expected start in about 2 h (2026-11-29T13:00:00)\n" +
				"job 15 (jalice): not waiting for resources (JobHeldUser)\n",
		},
		"noheader keeps standard error quiet for scripts": {
			args:       []string{"--me", "-h", "-o", "%i"},
			wantStdout: "14\n11\n15\n9\n",
		},
		"without --me nothing is added": {
			args:       []string{"-u", "alice", "-t", "PD", "-o", "%i"},
			wantStdout: "JOBID\n14\n11\n15\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{now: 1795950000, jobs: observeJobs()}
			te := newTestEnv(f, 1795950000)
			te.UID = 1000
			if code := Squeue(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.wantStdout, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantStderr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSqueuePositionSpecifier(t *testing.T) {
	f := &fakeController{now: 1795950000, jobs: observeJobs()}
	te := newTestEnv(f, 1795950000)
	if code := Squeue(context.Background(), te.Env, []string{"-u", "alice", "-o", "%.5i %.8# %P", "-S", "i"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	want := "JOBID POSITION PARTITION\n    9      N/A normal\n   11        2 normal\n   14        2 batch\n   15      N/A normal\n"
	if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	te = newTestEnv(f, 1795950000)
	if code := Squeue(context.Background(), te.Env, []string{"-u", "alice", "-O", "jobid:6,position:9,estimatedstart", "-t", "PD", "-S", "i"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	want = "JOBID POSITION EST_START           \n11    2        2026-11-29T13:00:00 \n14    2        N/A                 \n15    N/A      N/A                 \n"
	if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
		t.Errorf("-O (-want +got):\n%s", diff)
	}
}

// TestSqueueStartMatchesPeer formats a job like the one the peer planned
// (testdata/observe/peer-start-resources.txt: a job blocked by another
// whose time limit ends at 11:43:23, planned on cpu001) and compares with
// what Slurm printed, byte for byte.
func TestSqueueStartMatchesPeer(t *testing.T) {
	data, err := os.ReadFile("testdata/observe/peer-start-resources.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := string(data)
	const now = 1795952321
	f := &fakeController{now: now, jobs: []api.Job{
		{JobID: 1130, Name: "obs-b", UserName: "root", Partition: "batch", JobState: job.Pending, StateReason: job.ReasonResources,
			NodeCount: 1, TimeLimit: 600, SubmitTime: now - 22, StartTime: 1795952603, EstimatedStart: 1795952603, QueuePosition: 1,
			SchedNodes: "cpu001"},
		{JobID: 1129, Name: "obs-a", UserName: "root", Partition: "batch", JobState: job.Running, NodeCount: 1, Nodes: "cpu001",
			TimeLimit: 300, SubmitTime: now - 30, StartTime: 1795952303},
	}}
	// The peer's squeue keeps --start's format over -O's.
	for _, args := range [][]string{{"--start"}, {"--start", "-O", "JobID,Name"}, {"-O", "JobID", "--start"}} {
		te := newTestEnv(f, now)
		if code := Squeue(context.Background(), te.Env, args); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, te.stderr)
		}
		if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
			t.Errorf("squeue %v (-want +got):\n%s", args, diff)
		}
	}
}
