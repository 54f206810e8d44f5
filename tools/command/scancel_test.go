package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// Expected texts are what the peer's scancel printed (capture notes in
// testdata/peer/README).
func TestScancel(t *testing.T) {
	jobs := []api.Job{
		{JobID: 10, Name: "a", UserID: 1000, Partition: "normal", JobState: job.Pending},
		{JobID: 11, Name: "b", UserID: 1000, Partition: "batch", JobState: job.Running},
	}
	cases := map[string]struct {
		args       []string
		stdin      string
		results    func(ids []string) []api.JobResult
		wantErr    string
		wantOut    string
		wantCode   int
		wantFilter *api.JobFilter
		wantReq    *api.CancelRequest
	}{
		"unknown job is silent and succeeds": {
			args: []string{"999999"}, wantFilter: &api.JobFilter{JobIDs: []string{"999999"}},
		},
		"verbose reports the unknown job": {
			args: []string{"-v", "999999"},
			wantErr: "scancel: Terminating job 999999\n" +
				"scancel: error: Kill job error on job id 999999: Invalid job id specified\n",
		},
		"a signal to an unknown job is reported without -v": {
			args: []string{"--signal=USR1", "999999"},
			results: func([]string) []api.JobResult {
				return []api.JobResult{{JobID: "999999", Error: api.NewError(api.CodeInvalidJobID)}}
			},
			wantErr: "scancel: error: Kill job error on job id 999999: Invalid job id specified\n", wantCode: 1,
		},
		"a signal to an ended job reads as an invalid id": {
			args: []string{"-s", "KILL", "10"},
			results: func([]string) []api.JobResult {
				return []api.JobResult{{JobID: "10", Error: api.NewError(api.CodeAlreadyDone)}}
			},
			wantErr: "scancel: error: Kill job error on job id 10: Invalid job id specified\n", wantCode: 1,
		},
		"-b to an unknown job fails too": {
			args: []string{"-b", "999999"},
			results: func([]string) []api.JobResult {
				return []api.JobResult{{JobID: "999999", Error: api.NewError(api.CodeInvalidJobID)}}
			},
			wantErr: "scancel: error: Kill job error on job id 999999: Invalid job id specified\n", wantCode: 1,
		},
		"bad job id": {
			args: []string{"abc"}, wantErr: "scancel: error: Invalid job id abc\n", wantCode: 1,
		},
		"bad array spec": {
			args: []string{"12_[1-3x"}, wantErr: "scancel: error: Invalid job id 12_[1-3x\n", wantCode: 1,
		},
		"nothing to cancel": {
			wantErr: "scancel: error: No job identification provided\n", wantCode: 1,
		},
		"unknown signal": {
			args: []string{"-s", "FOO", "1"}, wantErr: "Unknown job signal: FOO\n", wantCode: 1,
		},
		"unknown user": {
			args: []string{"-u", "nosuchuser"}, wantErr: "scancel: error: Invalid user name: nosuchuser\n", wantCode: 1,
		},
		"bad state": {
			args:     []string{"-t", "bogus", "-u", "root"},
			wantErr:  "Invalid job state specified: bogus\nValid job states are PENDING, RUNNING, and SUSPENDED\n",
			wantCode: 1,
		},
		"step of a job": {
			args: []string{"12.3"}, wantErr: "scancel: error: Kill job error on job step id 12.3: Invalid job id specified\n",
			wantCode: 1,
		},
		"unknown option": {
			args:     []string{"--foo"},
			wantErr:  "scancel: unrecognized option '--foo'\nTry \"scancel --help\" for more information\n",
			wantCode: 1,
		},
		"filter with no match is silent": {
			args: []string{"-n", "nomatchxyz"}, results: func([]string) []api.JobResult { return nil },
			wantFilter: &api.JobFilter{Names: []string{"nomatchxyz"}},
		},
		"verbose filter with no match": {
			args: []string{"-v", "-n", "nomatchxyz"}, results: func([]string) []api.JobResult { return nil },
			wantErr: "scancel: error: No active jobs match ALL job filters, including: job_name=nomatchxyz \n",
		},
		"a finished state is accepted and matches nothing active": {
			args: []string{"-t", "CD", "-n", "nomatchxyz"}, results: func([]string) []api.JobResult { return nil },
			wantFilter: &api.JobFilter{Names: []string{"nomatchxyz"}, States: []string{"COMPLETED"}},
		},
		"verbose lists the filters by name": {
			args:    []string{"-v", "-u", "root", "-t", "PD", "-p", "nosuch", "-n", "foo", "-A", "acc", "-q", "qq", "-w", "gpu001", "-R", "r"},
			results: func([]string) []api.JobResult { return nil },
			wantErr: "scancel: error: No active jobs match ALL job filters, including: account=acc job_name=foo " +
				"nodelist=gpu001 partition=nosuch qos=qq reservation=r state=PENDING user_name=root \n",
		},
		"usage": {
			args: []string{"--usage"},
			wantOut: `Usage: scancel [-A account] [--batch] [--full] [--interactive] [-n job_name]
               [-p partition] [-Q] [-q qos] [-R reservation] [-s signal | integer]
               [-t PENDING | RUNNING | SUSPENDED] [--usage] [-u user_name]
               [--hurry] [-V] [-v] [-w hosts...] [--wckey=wckey]
               [job_id[_array_id][.step_id]]
`,
		},
		"all of a user's jobs in one request": {
			args: []string{"-u", "alice", "-p", "normal,batch", "-t", "PD"},
			results: func([]string) []api.JobResult {
				return []api.JobResult{{JobID: "10"}, {JobID: "11"}}
			},
			wantFilter: &api.JobFilter{Users: []string{"1000"}, Partitions: []string{"normal", "batch"},
				States: []string{"PENDING"}},
		},
		"signal the batch shell": {
			args:    []string{"-b", "-s", "USR1", "11"},
			wantReq: &api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{"11"}}, Signal: 10, BatchOnly: true},
		},
		"signal failure is reported": {
			args: []string{"-s", "TERM", "11"},
			results: func(ids []string) []api.JobResult {
				return []api.JobResult{{JobID: "11", Error: api.NewError(api.CodeJobPending)}}
			},
			wantErr: "scancel: error: Kill job error on job id 11: Job is pending execution\n", wantCode: 1,
		},
		"interactive cancels only confirmed jobs": {
			args: []string{"-i", "-u", "alice"}, stdin: "y\nn\n",
			wantOut:    "Cancel job_id=10 name=a partition=normal [y/n]? Cancel job_id=11 name=b partition=batch [y/n]? ",
			wantFilter: &api.JobFilter{JobIDs: []string{"10"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{jobs: jobs, results: tc.results}
			te := newTestEnv(f, 1795949851)
			te.Stdin = strings.NewReader(tc.stdin)
			code := Scancel(context.Background(), te.Env, tc.args)
			if diff := cmp.Diff(tc.wantErr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantOut, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if code != tc.wantCode {
				t.Errorf("exit = %d, want %d", code, tc.wantCode)
			}
			if tc.wantFilter != nil {
				if len(f.cancels) != 1 {
					t.Fatalf("%d cancel requests, want 1", len(f.cancels))
				}
				if diff := cmp.Diff(*tc.wantFilter, f.cancels[0].Filter); diff != "" {
					t.Errorf("filter (-want +got):\n%s", diff)
				}
			}
			if tc.wantReq != nil {
				if diff := cmp.Diff([]api.CancelRequest{*tc.wantReq}, f.cancels); diff != "" {
					t.Errorf("requests (-want +got):\n%s", diff)
				}
			}
		})
	}
}
