package command

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestS15SessionSent: sbatch and salloc send their session id, which the
// peer's scontrol shows as AllocNode:Sid (localhost:25592 for a salloc
// run from session 25592; Loam printed vm:0 for every job).
func TestS15SessionSent(t *testing.T) {
	f := &fakeSteps{fakeController: &fakeController{}, t: t, waits: []api.Allocation{{JobID: 7, State: job.Running, Ready: true,
		Name: "interactive", Partition: "normal", ClusterName: "c", NodeList: "n01",
		Nodes: []api.NodeAllocation{{Node: "n01", CPUs: 1}}, TasksPerNode: []int{1}}}}
	te := newTestEnv(f.fakeController, 1_800_000_000)
	te.Sid = 25592
	te.files["/home/alice/work/job.sh"] = []byte("#!/bin/sh\ntrue\n")
	if code := Sbatch(context.Background(), te.Env, []string{"job.sh"}); code != 0 {
		t.Fatalf("sbatch exit %d: %s", code, te.stderr)
	}
	te.Dial = func(context.Context) (Controller, error) { return f, nil }
	h := stepHooks{notify: func(chan<- os.Signal) func() { return func() {} },
		runLocal: func(_, _ []string, _ string, _ <-chan os.Signal) job.ExitCode { return job.ExitCode{} }}
	if code := runSalloc(context.Background(), te.Env, []string{"true"}, h); code != 0 {
		t.Fatalf("salloc exit %d: %s", code, te.stderr)
	}
	got := map[string]int{"sbatch": f.submits[0].Job.AllocSID, "salloc": f.allocs[0].Job.AllocSID}
	if diff := cmp.Diff(map[string]int{"sbatch": 25592, "salloc": 25592}, got); diff != "" {
		t.Errorf("session ids sent (-want +got):\n%s", diff)
	}
}

// TestS15AllocNodeSid: scontrol show job prints the submitting host and
// session id as the peer does ("Partition=normal AllocNode:Sid=localhost:25592").
func TestS15AllocNodeSid(t *testing.T) {
	j := api.Job{JobID: 7, Name: "interactive", UserName: "alice", JobState: job.Running, Partition: "normal",
		SubmitHost: "localhost", AllocSID: 25592, TimeLimit: 60, SubmitTime: 1795940000, StartTime: 1795940000}
	te := newTestEnv(&fakeController{jobs: []api.Job{j}}, 1795940010)
	if code := Scontrol(context.Background(), te.Env, []string{"show", "job", "7"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	var line string
	for _, l := range strings.Split(te.stdout.String(), "\n") {
		if strings.Contains(l, "AllocNode:Sid=") {
			line = l
		}
	}
	if want := "   Partition=normal AllocNode:Sid=localhost:25592"; line != want {
		t.Errorf("line %q, want %q", line, want)
	}
}

// TestS15EndedAtOnce: a job the controller ends before it is first waited
// for (one that cannot meet its --deadline) gets the peer's lines from
// `salloc --deadline=now+60 -t 5 true` and `srun --deadline=now+60 -t 5
// true` (ids renumbered 7), exit 1.
func TestS15EndedAtOnce(t *testing.T) {
	ended := []api.Allocation{{JobID: 7, Ended: true}}
	f := &fakeSteps{fakeController: &fakeController{}, t: t, waits: ended}
	te := newTestEnv(f.fakeController, 1_800_000_000)
	te.Dial = func(context.Context) (Controller, error) { return f, nil }
	h := stepHooks{notify: func(chan<- os.Signal) func() { return func() {} },
		runLocal: func(_, _ []string, _ string, _ <-chan os.Signal) job.ExitCode { return job.ExitCode{} }}
	if code := runSalloc(context.Background(), te.Env, []string{"true"}, h); code != 1 {
		t.Errorf("salloc exit %d, want 1", code)
	}
	want := "salloc: Pending job allocation 7\nsalloc: job 7 queued and waiting for resources\n" +
		"salloc: Job has been cancelled\nsalloc: Job allocation 7 has been revoked.\n" +
		"salloc: error: Job submit/allocate failed: Job/step already completing or completed\n"
	if diff := cmp.Diff(want, te.stderr.String()); diff != "" {
		t.Errorf("salloc stderr (-want +got):\n%s", diff)
	}
	runSrunCase(t, srunCase{args: []string{"true"}, waits: ended, wantCode: 1,
		wantStderr: "srun: job 7 queued and waiting for resources\nsrun: Job has been cancelled\n" +
			"srun: error: Unable to allocate resources: Job/step already completing or completed\n"})
}
