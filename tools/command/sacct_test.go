package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// acctJobs are finished, running and pending jobs as the controller's
// history reports them (2026-11-29, UTC).
func acctJobs() []api.AcctJob {
	task, by := 3, uint32(1000)
	return []api.AcctJob{
		{JobID: 12, Name: "train-llm", UserID: 1000, UserName: "alice", GroupID: 100, Account: "nlp",
			Partition: "normal", State: job.Completed, ExitCode: job.ExitCode{}, SubmitTime: 1795946400,
			EligibleTime: 1795946400, StartTime: 1795946410, EndTime: 1795950010, Elapsed: 3600, TimeLimit: 7200,
			Nodes: "gpu[001-002]", NodeCount: 2, CPUs: 16, ReqTRES: "cpu=16,mem=64G,node=2,billing=16",
			AllocTRES: "cpu=16,mem=64G,node=2,billing=16", WorkDir: "/home/alice",
			Steps: []api.AcctStep{{StepID: "batch", Name: "batch", State: job.Completed, StartTime: 1795946410,
				EndTime: 1795950010, Elapsed: 3600, Nodes: "gpu001", NodeCount: 1, CPUs: 8,
				AllocTRES: "cpu=8,mem=32G,node=1"}}},
		{JobID: 13, Name: "a-rather-long-job-name", UserID: 1000, UserName: "alice", Account: "nlp",
			Partition: "batch", State: job.Failed, ExitCode: job.ExitCode{Status: 3}, SubmitTime: 1795946500,
			StartTime: 1795946510, EndTime: 1795946570, Elapsed: 60, TimeLimit: api.UnlimitedSeconds,
			Nodes: "cpu001", NodeCount: 1, CPUs: 1, Steps: []api.AcctStep{{StepID: "batch", Name: "batch",
				State: job.Failed, ExitCode: job.ExitCode{Status: 3}, Elapsed: 60, Nodes: "cpu001", NodeCount: 1, CPUs: 1}}},
		{JobID: 15, ArrayJobID: 14, ArrayTaskID: &task, Name: "sweep", UserID: 1000, UserName: "alice",
			Partition: "batch", State: job.Running, SubmitTime: 1795946600, StartTime: 1795946700, Elapsed: 1300,
			TimeLimit: 3600, Nodes: "cpu002", NodeCount: 1, CPUs: 2},
		{JobID: 14, ArrayJobID: 14, ArrayTaskString: "4-9", Name: "sweep", UserID: 1000, UserName: "alice",
			Partition: "batch", State: job.Pending, SubmitTime: 1795946600, TimeLimit: 3600, CPUs: 2,
			Reason: job.ReasonPriority},
		{JobID: 16, Name: "cancelled", UserID: 1000, UserName: "alice", Partition: "normal",
			State: job.Cancelled, ExitCode: job.ExitCode{Signal: 15}, SubmitTime: 1795946800, TimeLimit: 600, CPUs: 1,
			CancelledBy: &by},
	}
}

// TestSacct prints Slurm's documented formats over recorded history; the
// peer has no slurmdbd, so these goldens are Loam's, checked by hand
// against sacct's print rules (widths, "+" cuts, "|" parsable output).
func TestSacct(t *testing.T) {
	const now = 1795950000 + 3600
	cases := map[string][]string{
		"default":        {},
		"allocations":    {"-X"},
		"brief":          {"-b"},
		"parsable":       {"-p", "-o", "JobID,JobName,State,ExitCode,Elapsed,AllocTRES"},
		"parsable2":      {"-P", "-n", "--format=jobid,user,start,end,nodelist,ncpus"},
		"widths":         {"-o", "JobID%-20,JobName%5,State%12,ExitCode,Timelimit,TimelimitRaw,Reserved"},
		"times":          {"--format", "JobID,Submit,Eligible,Start,End,Elapsed,CPUTime", "-X"},
		"resources":      {"-o", "jobid,reqtres%40,alloctres%40,reqmem,nnodes,reqcpus", "-X"},
		"custom-delim":   {"-P", "--delimiter=;", "-o", "jobid,state", "-X"},
		"cpu-and-reason": {"-o", "jobidraw,reason,partition,account,maxrss", "-X"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{acct: acctJobs()}
			te := newTestEnv(f, now)
			if code := Sacct(context.Background(), te.Env, args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			checkGolden(t, "sacct-"+name+".txt", te.stdout.String())
		})
	}
}

// TestSacctQuery checks what sacct asks for: its defaults and filters,
// by Slurm 22.05's rules (slurmdb_job_cond_def_start_end and sacct's
// options: root and -j/-N see every user; the window excludes its end).
func TestSacctQuery(t *testing.T) {
	const now = 1795953600 // 2026-11-29T11:00:00Z
	midnight := int64(1795910400)
	cases := map[string]struct {
		uid  uint32
		args []string
		want api.AcctQuery
	}{
		"defaults: my jobs since midnight": {
			uid: 1000, want: api.AcctQuery{Users: []string{"1000"}, StartTime: midnight, EndTime: now + 1},
		},
		"root sees every user": {
			want: api.AcctQuery{StartTime: midnight, EndTime: now + 1},
		},
		"all users": {
			uid: 1000, args: []string{"-a"}, want: api.AcctQuery{StartTime: midnight, EndTime: now + 1},
		},
		"user -1 is every user": {
			uid: 1000, args: []string{"-u", "-1"}, want: api.AcctQuery{StartTime: midnight, EndTime: now + 1},
		},
		"the last of -a and -u wins": {
			uid: 1000, args: []string{"-a", "-u", "alice"},
			want: api.AcctQuery{Users: []string{"1000"}, StartTime: midnight, EndTime: now + 1},
		},
		"root asking for a user": {
			args: []string{"-u", "alice"}, want: api.AcctQuery{Users: []string{"1000"}, StartTime: midnight, EndTime: now + 1},
		},
		"job ids drop the window start and the user": {
			uid: 1000, args: []string{"-j", "12,13_2"}, want: api.AcctQuery{JobIDs: []string{"12", "13_2"}, EndTime: now + 1},
		},
		"nodes drop the user": {
			uid: 1000, args: []string{"-N", "cpu01"},
			want: api.AcctQuery{Nodes: []string{"cpu01"}, StartTime: midnight, EndTime: now + 1},
		},
		"states alone: the instant now": {
			args: []string{"-s", "R"}, want: api.AcctQuery{States: []string{"RUNNING"}, StartTime: now, EndTime: now + 1},
		},
		"states with a start end there": {
			args: []string{"-s", "CD", "-S", "2026-11-28T00:00"},
			want: api.AcctQuery{States: []string{"COMPLETED"}, StartTime: 1795824000, EndTime: 1795824001},
		},
		"states with jobs: from the Epoch": {
			args: []string{"-s", "CD", "-j", "5"}, want: api.AcctQuery{States: []string{"COMPLETED"}, JobIDs: []string{"5"}, EndTime: now + 1},
		},
		"repeated lists add up": {
			args: []string{"-j", "1", "-j", "2", "-r", "a", "--partition=b", "-X", "-t"},
			want: api.AcctQuery{JobIDs: []string{"1", "2"}, Partitions: []string{"a", "b"}, EndTime: now + 1, AllocationsOnly: true},
		},
		"filters": {
			args: []string{"-u", "alice", "-A", "nlp", "-r", "normal", "-s", "CD,F", "-S", "2026-11-28T00:00",
				"-E", "2026-11-29T10:00", "-X", "--name", "x", "-N", "gpu[001-002]"},
			want: api.AcctQuery{Users: []string{"1000"}, Accounts: []string{"nlp"}, Partitions: []string{"normal"},
				States: []string{"COMPLETED", "FAILED"}, StartTime: 1795824000, EndTime: 1795946400, AllocationsOnly: true,
				Names: []string{"x"}, Nodes: []string{"gpu001", "gpu002"}},
		},
		"duplicates asks for every run": {
			args: []string{"-D", "-j", "7"}, want: api.AcctQuery{JobIDs: []string{"7"}, EndTime: now + 1, Duplicates: true},
		},
		"options Loam accepts and ignores": {
			args: []string{"-L", "--local", "--federation", "--units=M", "--use-local-uid", "-T"},
			want: api.AcctQuery{StartTime: midnight, EndTime: now + 1},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{}
			te := newTestEnv(f, now)
			te.Env.UID = tc.uid
			if code := Sacct(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff([]api.AcctQuery{tc.want}, f.acctQs); diff != "" {
				t.Errorf("query (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSacctErrors(t *testing.T) {
	cases := map[string]struct {
		args    []string
		wantErr string
	}{
		"unknown field":    {[]string{"-o", "jobid,frob"}, "sacct: error: Invalid field requested: \"frob\"\n"},
		"unknown user":     {[]string{"-u", "nosuchuser"}, "sacct: error: Invalid user id: nosuchuser\n"},
		"stray argument":   {[]string{"12"}, "sacct: error: Unknown arguments:\nsacct: error:  12\n"},
		"unrecognized opt": {[]string{"--frob"}, "sacct: unrecognized option '--frob'\n"},
		// The peer's words, where its time parser gave up.
		"bad start":   {[]string{"-S", "bogus"}, "Invalid time specification (pos=0): bogus\n"},
		"bad month":   {[]string{"-S", "2026-13-01"}, "Invalid time specification (pos=5): 2026-13-01\n"},
		"bad end":     {[]string{"-E", "now+x"}, "Invalid time specification (pos=3): now+x\n"},
		"bad minutes": {[]string{"-E", "12:99"}, "Invalid time specification (pos=3): 12:99\n"},
		"long and format": {[]string{"-l", "-o", "jobid"},
			"sacct: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry.\n"},
		"start after end": {[]string{"-S", "2026-11-29T10:00", "-E", "2026-11-29T09:00"},
			"sacct: error: Start time (2026-11-29T10:00:00) requested is after end time (2026-11-29T09:00:00).\n"},
		"bad time limit":              {[]string{"-k", "0"}, "sacct: fatal: Invalid time limit specification\n"},
		"field before stray argument": {[]string{"-o", "frob", "12"}, "sacct: error: Invalid field requested: \"frob\"\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(&fakeController{}, 1795953600)
			if code := Sacct(context.Background(), te.Env, tc.args); code != 1 {
				t.Errorf("exit = %d, want 1", code)
			}
			if diff := cmp.Diff(tc.wantErr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if strings.TrimSpace(te.stdout.String()) != "" {
				t.Errorf("stdout = %q, want nothing", te.stdout)
			}
		})
	}
}
