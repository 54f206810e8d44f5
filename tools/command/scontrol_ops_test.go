package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

func i64(v int64) *int64 { return &v }
func pint(v int) *int    { return &v }
func pstr(v string) *string {
	return &v
}

// TestScontrolRequests checks what scontrol's changing commands send and
// that they print nothing on success, as Slurm's.
func TestScontrolRequests(t *testing.T) {
	jobs := []api.Job{{JobID: 12, Name: "x", JobState: job.Pending, TimeLimit: 3600},
		{JobID: 13, Name: "y", JobState: job.Pending, TimeLimit: 3600}}
	cases := map[string]struct {
		args  []string
		check func(t *testing.T, f *fakeController)
	}{
		"hold as operator": {[]string{"hold", "12,13"}, func(t *testing.T, f *fakeController) {
			want := []api.HoldRequest{{JobIDs: []string{"12", "13"}}}
			if diff := cmp.Diff(want, f.holds); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		"user hold": {[]string{"uhold", "JobId=12"}, func(t *testing.T, f *fakeController) {
			want := []api.HoldRequest{{JobIDs: []string{"12"}, User: true}}
			if diff := cmp.Diff(want, f.holds); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		"release by name": {[]string{"release", "Name=y"}, func(t *testing.T, f *fakeController) {
			want := []api.ReleaseRequest{{JobIDs: []string{"13"}}}
			if diff := cmp.Diff(want, f.releases); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		"update several fields": {[]string{"update", "JobId=12", "TimeLimit=1-00:00:00", "Partition=batch",
			"Nice=5", "Comment=a b", "Priority=100", "ArrayTaskThrottle=3"}, func(t *testing.T, f *fakeController) {
			want := []api.UpdateRequest{{JobIDs: []string{"12"}, Update: api.JobUpdate{TimeLimit: i64(86400),
				Partition: pstr("batch"), Nice: pint(5), Comment: pstr("a b"), Priority: i64(100), ArrayMaxTasks: pint(3)}}}
			if diff := cmp.Diff(want, f.updates); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		"time limit increment": {[]string{"update", "jobid=12", "timelimit=+30"}, func(t *testing.T, f *fakeController) {
			if got := *f.updates[0].Update.TimeLimit; got != 3600+1800 {
				t.Errorf("time limit = %d, want 5400", got)
			}
		}},
		// The peer keeps 1:00:00 for +0, -0 and +00: the increment is 0
		// minutes, where a plain TimeLimit=0 means no limit.
		"a zero increment": {[]string{"update", "jobid=12", "timelimit=+0"}, func(t *testing.T, f *fakeController) {
			if got := *f.updates[0].Update.TimeLimit; got != 3600 {
				t.Errorf("time limit = %d, want 3600", got)
			}
		}},
		"drain nodes": {[]string{"update", "NodeName=n[01-02]", "State=drain", "Reason=disk swap"}, func(t *testing.T, f *fakeController) {
			want := []api.NodeUpdateRequest{{Nodes: "n[01-02]", State: "DRAIN", Reason: "disk swap"}}
			if diff := cmp.Diff(want, f.nodeUpds); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
		"requeue and hold": {[]string{"requeuehold", "12"}, func(t *testing.T, f *fakeController) {
			want := []api.RequeueRequest{{JobIDs: []string{"12"}, Hold: true}}
			if diff := cmp.Diff(want, f.requeues); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{jobs: jobs}
			te := newTestEnv(f, 1795950000)
			code := Scontrol(context.Background(), te.Env, tc.args)
			if code != 0 || te.stdout.Len()+te.stderr.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr %q; want silence and 0", code, te.stdout, te.stderr)
			}
			tc.check(t, f)
		})
	}
}

func TestScontrolMessages(t *testing.T) {
	cases := map[string]struct {
		args     []string
		stdin    string
		wantOut  string
		wantErr  string
		wantCode int
	}{
		"drain needs a reason": {args: []string{"update", "NodeName=n01", "State=DRAIN"},
			wantErr: "You must specify a reason when DOWNING or DRAINING a node. Request denied\n", wantCode: 1},
		"bad time limit": {args: []string{"update", "JobId=12", "TimeLimit=abc"},
			wantErr: "scontrol: error: Invalid TimeLimit value\n", wantCode: 1},
		"no changes": {args: []string{"update", "JobId=12"}, wantErr: "No changes specified\n", wantCode: 1},
		"not a job id": {args: []string{"update", "jobid=12x", "timelimit=10"},
			wantErr: "Invalid job id specified for job 12x\n", wantCode: 1},
		"an empty job id": {args: []string{"update", "jobid=", "timelimit=10"}},
		"ping with an argument": {args: []string{"ping", "bogus"},
			wantErr: "too many arguments for keyword:ping\n", wantCode: 1},
		"an unknown array task": {args: []string{"update", "jobid=99_3", "timelimit=10"},
			wantErr: "99_3: Invalid job id specified\n", wantCode: 1},
		"an unknown job": {args: []string{"update", "jobid=99", "timelimit=10"},
			wantErr: "Invalid job id specified for job 99\n", wantCode: 1},
		"too few arguments": {args: []string{"hold"}, wantErr: "too few arguments for keyword:hold\n", wantCode: 1},
		"hostnames from the job environment": {args: []string{"show", "hostnames"},
			wantOut: "n01\nn02\n"},
		"commands from standard input": {stdin: "show hostlist n1,n2\nexit\nshow hostlist n9\n",
			wantOut: "scontrol: show hostlist n1,n2\nn[1-2]\nscontrol: exit\n"},
		"standard input to its end": {stdin: "show hostlist n1\n  \n",
			wantOut: "scontrol: show hostlist n1\nn1\nscontrol:   \nscontrol: \n", wantCode: 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(&fakeController{jobs: []api.Job{{JobID: 12}}}, 1795950000)
			te.Environ = append(te.Environ, "SLURM_NODELIST=n[01-02]")
			te.Stdin = strings.NewReader(tc.stdin)
			code := Scontrol(context.Background(), te.Env, tc.args)
			if diff := cmp.Diff(tc.wantOut, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantErr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if code != tc.wantCode {
				t.Errorf("exit = %d, want %d", code, tc.wantCode)
			}
		})
	}
}

// TestScontrolLoamFields checks that Loam's additions come after every
// Slurm field of a job record.
func TestScontrolLoamFields(t *testing.T) {
	j := api.Job{JobID: 7, Name: "big", UserName: "alice", UserID: 1000, GroupName: "users", GroupID: 100,
		JobState: job.Pending, StateReason: job.ReasonResources, Partition: "normal", TimeLimit: 7200,
		SubmitTime: 1795940000, BatchFlag: true, WorkDir: "/w", NodeCount: 4, CPUs: 32, Tasks: 4,
		Tenant: "nlp", QueueClass: "normal", QueuePosition: 2, EstimatedStart: 1795960000, GPUs: 32,
		SchedReservation: &api.SchedReservation{Created: 1795945000, PlannedStart: 1795960000,
			Expires: 1795962000, Nodes: "gpu[001-004]"}}
	te := newTestEnv(&fakeController{jobs: []api.Job{j}}, 1795950000)
	if code := Scontrol(context.Background(), te.Env, []string{"show", "job", "7"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	checkGolden(t, "scontrol-loam-fields.txt", te.stdout.String())
}

// TestScontrolShowConfigLayout: keys pad to 23 columns whatever the
// longest key, as in Slurm 22.05 ("ClusterName             = peer",
// "AccountingStorageBackupHost = (null)").
func TestScontrolShowConfigLayout(t *testing.T) {
	const now = 1795950000
	f := &fakeController{now: now, config: api.ConfigResponse{Now: now, Entries: []api.KeyValue{
		{Key: "ClusterName", Value: "peer"}, {Key: "AccountingStorageBackupHost", Value: "(null)"},
		{Key: "LoamReservationCooldownSeconds", Value: "60"}}}}
	te := newTestEnv(f, now)
	if code := Scontrol(context.Background(), te.Env, []string{"show", "config"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	lines := strings.Split(te.stdout.String(), "\n")
	want := []string{"ClusterName             = peer", "AccountingStorageBackupHost = (null)", "LoamReservationCooldownSeconds = 60"}
	if diff := cmp.Diff(want, lines[1:4]); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
