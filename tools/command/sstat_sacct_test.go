package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// usageJobs: job 20 ran a batch step and a two-node step 0, both
// measured; job 21 runs, its step 0 not measured yet; job 22 pends.
func usageJobs() []api.AcctJob {
	batch := &api.StepUsage{Nodes: []api.NodeUsage{{Node: "gpu001", MemPeak: 70 << 20,
		Tasks: []api.TaskUsage{{Task: 0, UserUsec: 280_000, SysUsec: 220_000, MaxRSS: 64604 << 10}}}}}
	step0 := &api.StepUsage{Nodes: []api.NodeUsage{
		{Node: "gpu001", Tasks: []api.TaskUsage{{Task: 0, UserUsec: 3_600_000_000, SysUsec: 1_500_000, MaxRSS: 2 << 30},
			{Task: 1, UserUsec: 3_500_000_000, SysUsec: 1_000_000, MaxRSS: 1 << 30}}},
		{Node: "gpu002", Tasks: []api.TaskUsage{{Task: 2, UserUsec: 100_000_000, SysUsec: 123_000, MaxRSS: 17784 << 10}}},
	}}
	return []api.AcctJob{
		{JobID: 20, Name: "train", UserID: 1000, UserName: "alice", Partition: "normal", State: job.Completed,
			SubmitTime: 1795946400, StartTime: 1795946410, EndTime: 1795950010, Elapsed: 3600, Nodes: "gpu[001-002]",
			NodeCount: 2, CPUs: 16, Steps: []api.AcctStep{
				{StepID: "batch", Name: "batch", State: job.Completed, Elapsed: 3600, Nodes: "gpu001", NodeCount: 1, CPUs: 8, Tasks: 1, Usage: batch},
				{StepID: "0", Name: "python", State: job.Completed, Elapsed: 3590, Nodes: "gpu[001-002]", NodeCount: 2, CPUs: 16, Tasks: 3, Usage: step0},
			}},
		{JobID: 21, Name: "live", UserID: 1000, UserName: "alice", Partition: "normal", State: job.Running,
			SubmitTime: 1795946500, StartTime: 1795946510, Elapsed: 60, Nodes: "cpu001", NodeCount: 1, CPUs: 2,
			Steps: []api.AcctStep{{StepID: "0", Name: "sleep", State: job.Running, Elapsed: 50, Nodes: "cpu001", NodeCount: 1, CPUs: 2, Tasks: 2}}},
		{JobID: 22, Name: "waits", UserID: 1000, UserName: "alice", Partition: "normal", State: job.Pending,
			SubmitTime: 1795946600, CPUs: 1},
	}
}

// TestSacctUsage: the measured fields follow sacct's print rules (Slurm's
// src/sacct/print.c, documented in sacct.1): per-step statistics blank
// on the job line, CPU times summed there, sizes with exact units.
func TestSacctUsage(t *testing.T) {
	cases := map[string][]string{
		"usage-memory": {"-o", "jobid,maxrss,maxrssnode,maxrsstask,averss,maxvmsize,ntasks"},
		"usage-cpu":    {"-o", "jobid,totalcpu,usercpu,systemcpu,avecpu,mincpu,mincpunode,mincputask"},
		"usage-tres":   {"-P", "-o", "jobid,tresusageinmax,tresusageinmaxnode,tresusageinmaxtask,tresusageintot,tresusageinave"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{acct: usageJobs()}
			te := newTestEnv(f, 1795950000+3600)
			if code := Sacct(context.Background(), te.Env, args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			checkGolden(t, "sacct-"+name+".txt", te.stdout.String())
		})
	}
}

// TestSacctUsageInThePeersForms: the forms of a Slurm cluster that
// gathers usage (its sacct -P --noconvert of a finished job): sizes in
// bytes with --noconvert, pages with their node and task, the
// TRESUsageOut strings with the energy (Loam measures no disk writes),
// the task strings' ids plain (sacct's, unlike sstat's).
func TestSacctUsageInThePeersForms(t *testing.T) {
	tests := map[string]struct {
		args []string
		want string
	}{
		"--noconvert: bytes": {[]string{"--noconvert", "-o", "jobid,maxrss,averss,tresusageinmax"},
			"20|||\n20.batch|66154496|66154496|cpu=00:00:00,energy=0,mem=66154496,pages=0\n" +
				"20.0|2147483648|1079812096|cpu=01:00:01,energy=0,mem=2147483648,pages=0\n21|||\n21.0|||\n22|||\n"},
		"pages and the out strings": {[]string{"-o", "jobid,maxpages,maxpagesnode,maxpagestask,avepages,tresusageoutmax,tresusageoutmaxnode,tresusageoutmaxtask"},
			"20|||||||\n20.batch|0|gpu001|0|0|energy=0|energy=gpu001|\n20.0|0|gpu001|0|0|energy=0|energy=gpu001|\n" +
				"21|||||||\n21.0|||||||\n22|||||||\n"},
		"task strings: plain ids": {[]string{"-o", "jobid,tresusageinmaxtask,tresusageinmintask"},
			"20||\n20.batch|cpu=0,mem=0,pages=0|cpu=0,mem=0,pages=0\n20.0|cpu=0,mem=0,pages=0|cpu=2,mem=2,pages=0\n21||\n21.0||\n22||\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{acct: usageJobs()}
			te := newTestEnv(f, 1795950000+3600)
			args := append([]string{"-P", "-n"}, tc.args...)
			if code := Sacct(context.Background(), te.Env, args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSacctUsageUnits: --units converts the usage sizes too, as the
// peer's sacct --units=M prints them ("20.66M"), a count of 0 plain.
func TestSacctUsageUnits(t *testing.T) {
	f := &fakeController{acct: usageJobs()[:1]}
	te := newTestEnv(f, 1795950000+3600)
	args := []string{"-P", "-n", "--units=M", "-o", "jobid,maxrss,maxpages,tresusageinmax"}
	if code := Sacct(context.Background(), te.Env, args); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	want := "20|||\n20.batch|63.09M|0|cpu=00:00:00,energy=0,mem=63.09M,pages=0\n20.0|2048M|0|cpu=01:00:01,energy=0,mem=2048M,pages=0\n"
	if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
