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

func intp(n int) *int { return &n }

// scancelJobs: a pending and a running job, a pending array record with a
// running task, and an ended job.
func scancelJobs() []api.Job {
	return []api.Job{
		{JobID: 10, Name: "a", UserID: 1000, Partition: "normal", JobState: job.Pending},
		{JobID: 11, Name: "b", UserID: 1000, Partition: "batch", JobState: job.Running, Nodes: "gpu[01-02]", WCKey: "k"},
		{JobID: 12, ArrayJobID: 12, ArrayTaskString: "1,3-5", Name: "arr", UserID: 0, Partition: "normal",
			JobState: job.Pending},
		{JobID: 13, ArrayJobID: 12, ArrayTaskID: intp(2), Name: "arr", UserID: 0, Partition: "normal",
			JobState: job.Running, Nodes: "cpu01"},
		{JobID: 14, Name: "done", UserID: 1000, Partition: "normal", JobState: job.Completed},
	}
}

type scancelCase struct {
	args     []string
	env      []string // SCANCEL_* variables
	stdin    string
	results  func(ids []string) []api.JobResult
	steps    []api.Step
	wantErr  string
	wantOut  string
	wantCode int
	// wantSent lists the job references of each cancel request.
	wantSent [][]string
	wantReq  *api.CancelRequest // the only request, when set
}

// Expected texts and exit codes are what the peer's scancel printed for
// the same arguments (see testdata/peer/README).
func TestScancel(t *testing.T) {
	invalid := func(ids []string) []api.JobResult {
		var out []api.JobResult
		for _, id := range ids {
			out = append(out, api.JobResult{JobID: id, Error: api.NewError(api.CodeInvalidJobID)})
		}
		return out
	}
	failAll := func(c api.Code) func([]string) []api.JobResult {
		return func(ids []string) []api.JobResult {
			var out []api.JobResult
			for _, id := range ids {
				out = append(out, api.JobResult{JobID: id, Error: api.NewError(c)})
			}
			return out
		}
	}
	cases := map[string]scancelCase{
		"an unknown job is silent and succeeds": {
			args: []string{"999999"}, results: invalid, wantSent: [][]string{{"999999"}},
		},
		"verbose reports the unknown job": {
			args: []string{"-v", "999999"}, results: invalid, wantSent: [][]string{{"999999"}},
			wantErr: "scancel: Terminating job 999999\n" +
				"scancel: error: Kill job error on job id 999999: Invalid job id specified\n",
		},
		// The peer's scancel against a controller it cannot reach exits 8,
		// SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR (1800) in 8 bits.
		"an unreachable controller": {
			args: []string{"1"}, results: failAll(api.CodeCtldConnect), wantSent: [][]string{{"1"}}, wantCode: 8,
			wantErr: "scancel: error: Kill job error on job id 1: Unable to contact slurm controller (connect failure)\n",
		},
		"an ended job reads as completed with -v": {
			args: []string{"-v", "14"}, results: failAll(api.CodeAlreadyDone), wantSent: [][]string{{"14"}},
			wantErr: "scancel: Terminating job 14\n" +
				"scancel: error: Kill job error on job id 14: Job/step already completing or completed\n",
		},
		"a comma list is several jobs": {
			args: []string{"-v", "998,999"}, results: invalid, wantSent: [][]string{{"998", "999"}},
			wantErr: "scancel: Terminating job 998\nscancel: Terminating job 999\n" +
				"scancel: error: Kill job error on job id 998: Invalid job id specified\n" +
				"scancel: error: Kill job error on job id 999: Invalid job id specified\n",
		},
		"a trailing underscore is sent as given": {
			args: []string{"-v", "12_"},
			wantErr: "scancel: Terminating job 12_\n" +
				"scancel: error: Kill job error on job id 12_: Invalid job id specified\n",
		},
		// Loam runs no hetjobs: "+0" of a live job is refused as slurmctld
		// refuses it for a job that is not one; the job is not cancelled.
		"component 0 of a job that is not a hetjob": {
			args:     []string{"10+0,11"},
			wantSent: [][]string{{"11"}},
			wantErr:  "scancel: error: Kill job error on job id 10+0: Job not heterogeneous job\n",
			wantCode: 58,
		},
		"another component, or one of an unknown job, is left alone": {
			args: []string{"10+1", "999999+0"},
		},
		// Loam has no federation: no job is a sibling, as the peer
		// answers for its jobs; nothing is cancelled.
		"a sibling of a job that is not federated": {
			args:     []string{"-v", "--sibling=x", "10", "999999"},
			wantErr:  "scancel: Terminating job 10\nscancel: Terminating job 999999\nscancel: error: Kill job error on job id 10: Not a valid federated job\n",
			wantCode: 191,
		},
		"a sibling by filter": {
			args:     []string{"--sibling=x", "-n", "b"},
			wantErr:  "scancel: error: Kill job error on job id 11: Not a valid federated job\n",
			wantCode: 191,
		},
		"an array range is sent as one reference": {
			args: []string{"12_[3-4]"}, wantSent: [][]string{{"12_[3-4]"}},
		},
		"full and hurry keep the plain request": {
			args:    []string{"-v", "-f", "-H", "--ctld", "10"},
			wantErr: "scancel: Terminating full job 10\n",
			wantReq: &api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{"10"}}, Full: true},
		},
		"a job of another user": {
			args: []string{"-Q", "10"}, results: failAll(api.CodeAccessDenied), wantSent: [][]string{{"10"}},
			wantErr:  "scancel: error: Kill job error on job id 10: Access/permission denied\n",
			wantCode: 210,
		},
		"a signal to an unknown job is reported without -v": {
			args:     []string{"--signal=USR1", "999999"},
			wantErr:  "scancel: error: Kill job error on job id 999999: Invalid job id specified\n",
			wantCode: 1,
		},
		"-v names no signal for a job that is not there": {
			args:     []string{"-v", "-s", "9", "14"},
			wantErr:  "scancel: error: Kill job error on job id 14: Invalid job id specified\n",
			wantCode: 1,
		},
		"-Q hides the unknown job but not the exit status": {
			args: []string{"-Q", "-s", "USR1", "999999"}, wantCode: 1,
		},
		"a filter with an unknown job fails": {
			args:     []string{"-t", "PD", "999999"},
			wantErr:  "scancel: error: Kill job error on job id 999999: Invalid job id specified\n",
			wantCode: 1,
		},
		"a signal to a pending job cannot be sent now": {
			args: []string{"-s", "USR1", "10"}, results: failAll(api.CodeTransitionState), wantSent: [][]string{{"10"}},
			wantErr:  "scancel: error: Kill job error on job id 10: Job can not be altered now, try again later\n",
			wantCode: 228,
		},
		"the batch shell of a running job": {
			args:    []string{"-v", "-b", "-s", "USR1", "11"},
			wantErr: "scancel: Signal 10 to batch job 11\n",
			wantReq: &api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{"11"}}, Signal: 10, BatchOnly: true},
		},
		"-b alone kills the batch shell": {
			args:    []string{"-v", "-b", "11"},
			wantErr: "scancel: Terminating batch job 11\n",
			wantReq: &api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{"11"}}, BatchOnly: true},
		},
		"any 16-bit signal number is sent": {
			args:    []string{"-v", "-s", "99", "11"},
			wantErr: "scancel: Signal 99 to job 11\n",
			wantReq: &api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{"11"}}, Signal: 99},
		},
		"-1 is signal 65535": {
			args:    []string{"-s", "-1", "11"},
			wantReq: &api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{"11"}}, Signal: 65535},
		},
		"65534 is no signal at all": {
			args: []string{"-v", "-s", "65534", "10"}, wantErr: "scancel: Terminating job 10\n",
			wantReq: &api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{"10"}}},
		},
		"filters act on pending records first": {
			args:     []string{"-v", "-t", "PD", "-u", "root"},
			wantErr:  "scancel: Terminating job 12_[1,3-5]\n",
			wantSent: [][]string{{"12_[1,3-5]"}},
		},
		"a user's jobs: pending, then running": {
			args:     []string{"-u", "alice"},
			wantSent: [][]string{{"10"}, {"11"}},
		},
		"a task named with a filter cancels its pending record": {
			args: []string{"-n", "arr", "12_4", "12_2"}, wantSent: [][]string{{"12_[1,3-5]"}, {"12_2"}},
		},
		"the whole array, its running task with the pending record": {
			args:     []string{"-v", "-s", "KILL", "12"},
			wantErr:  "scancel: Signal 9 to job 12_[1,3-5]\nscancel: Signal 9 to job 12_2\n",
			wantSent: [][]string{{"12_[1,3-5]", "12_2"}},
		},
		"a job the filters leave out is left alone silently": {
			args: []string{"-p", "batch", "10"},
		},
		"--wckey matches the job's": {
			args: []string{"--wckey=k"}, wantSent: [][]string{{"11"}},
		},
		"-w matches the allocated nodes": {
			args: []string{"-w", "gpu[02-03]"}, wantSent: [][]string{{"11"}},
		},
		"a filter with no match is silent": {
			args: []string{"-n", "nomatchxyz"},
		},
		"a partition list is one name": {
			args:    []string{"-v", "-p", "normal,batch"},
			wantErr: "scancel: error: No active jobs match ALL job filters, including: partition=normal,batch \n",
		},
		"a finished state matches nothing": {
			args:    []string{"-v", "-t", "CD", "-u", "alice"},
			wantErr: "scancel: error: No active jobs match ALL job filters, including: state=COMPLETED user_name=alice \n",
		},
		"verbose lists the filters in Slurm's order": {
			args: []string{"-v", "--wckey=k", "-u", "root", "-t", "PD", "-p", "nosuch", "-n", "foo", "-A", "ACC",
				"-q", "QQ", "-w", "gpu001", "-R", "r"},
			wantErr: "scancel: error: No active jobs match ALL job filters, including: account=acc " +
				"job_name=foo nodelist=gpu001 partition=nosuch qos=qq reservation=r state=PENDING user_name=root wckey=k \n",
		},
		"interactive asks again until y or n": {
			args: []string{"-i", "-u", "alice"}, stdin: "x\ny\nn\n",
			wantOut: "Cancel job_id=10 name=a partition=normal [y/n]? Cancel job_id=10 name=a partition=normal [y/n]? " +
				"Cancel job_id=11 name=b partition=batch [y/n]? ",
			wantSent: [][]string{{"10"}},
		},
		"interactive stops at the end of input": {
			args:    []string{"-i", "10"},
			wantOut: "Cancel job_id=10 name=a partition=normal [y/n]? ",
		},
		"a step of an ended job": {
			args: []string{"14.0"}, wantErr: "scancel: error: Kill job error on job step id 14.0: Invalid job id specified\n",
			wantCode: 1,
		},
		"12. is step 0": {
			args: []string{"999."}, wantErr: "scancel: error: Kill job error on job step id 999.0: Invalid job id specified\n",
			wantCode: 1,
		},
		"a step of a pending job is left alone": {
			args: []string{"10.0"},
		},
		"a step that is not there": {
			args: []string{"-v", "11.5"}, results: invalid,
			wantErr: "scancel: Terminating step 11.5\n" +
				"scancel: error: Kill job error on job step id 11: Invalid job id specified\n",
			wantCode: 225, wantSent: [][]string{{"11"}},
		},
		"a signal to a step that is not there goes to the nodes": {
			args: []string{"-s", "USR2", "11.5"}, results: invalid, wantSent: [][]string{{"11"}},
		},
		"--ctld sends it to the controller": {
			args: []string{"--ctld", "-s", "USR2", "11.5"}, results: invalid,
			wantErr:  "scancel: error: Kill job error on job step id 11: Invalid job id specified\n",
			wantCode: 225, wantSent: [][]string{{"11"}},
		},
		"the environment selects jobs": {
			args: []string{"-v"}, env: []string{"SCANCEL_NAME=nomatchx"},
			wantErr: "scancel: error: No active jobs match ALL job filters, including: job_name=nomatchx \n",
		},
		"the command line overrides the environment": {
			args: []string{"-n", "a"}, env: []string{"SCANCEL_NAME=nomatchx", "SCANCEL_VERBOSE=T"},
			wantErr: "scancel: Terminating job 10\n", wantSent: [][]string{{"10"}},
		},
		"a bad flag value is reported and ignored": {
			args: []string{"998"}, env: []string{"SCANCEL_BATCH=x", "SCANCEL_VERBOSE=yes"}, results: invalid,
			wantErr: "scancel: error: Unrecognized SCANCEL_BATCH value: x\n" +
				"scancel: error: Unrecognized SCANCEL_VERBOSE value: yes\n",
			wantSent: [][]string{{"998"}},
		},
		"a bad state in the environment": {
			args: []string{"998"}, env: []string{"SCANCEL_STATE=foo"},
			wantErr:  "Unrecognized SCANCEL_STATE value: foo\nValid job states are PENDING, RUNNING, and SUSPENDED\n",
			wantCode: 1,
		},
		"a running step is cancelled alone": {
			args:    []string{"11.0"},
			wantReq: &api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{"11"}}, Step: new(uint32(0))},
		},
		"a signal to one running step": {
			args: []string{"-v", "-s", "USR1", "11.3"}, wantErr: "scancel: Signal 10 to step 11.3\n",
			wantReq: &api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{"11"}}, Signal: 10, Step: new(uint32(3))},
		},
		"a step the controller refuses": {
			args: []string{"11.0"}, results: failAll(api.CodeAccessDenied),
			wantErr:  "scancel: error: Kill job error on job step id 11: Access/permission denied\n",
			wantCode: 210, wantSent: [][]string{{"11"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) { runScancelCase(t, tc) })
	}
}

func runScancelCase(t *testing.T, tc scancelCase) {
	t.Helper()
	f := &fakeController{jobs: scancelJobs(), results: tc.results}
	te := newTestEnv(f, 1795949851)
	te.Stdin = strings.NewReader(tc.stdin)
	te.Environ = append(te.Environ, tc.env...)
	te.Dial = func(context.Context) (Controller, error) {
		return &fakeStepLister{fakeController: f, steps: tc.steps}, nil
	}
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
	if tc.wantReq != nil {
		if diff := cmp.Diff([]api.CancelRequest{*tc.wantReq}, f.cancels); diff != "" {
			t.Errorf("requests (-want +got):\n%s", diff)
		}
		return
	}
	var sent [][]string
	for _, r := range f.cancels {
		sent = append(sent, r.Filter.JobIDs)
	}
	if tc.wantSent != nil || len(sent) > 0 {
		if diff := cmp.Diff(tc.wantSent, sent); diff != "" {
			t.Errorf("sent (-want +got):\n%s", diff)
		}
	}
}

// Arguments refused before anything is sent, with the peer's words.
func TestScancelRefusesArguments(t *testing.T) {
	cases := map[string]struct {
		args    []string
		wantErr string
		wantOut string
		code    int
	}{
		"nothing to cancel":            {nil, "scancel: error: No job identification provided\n", "", 1},
		"bad job id":                   {[]string{"abc"}, "scancel: error: Invalid job id abc\n", "", 1},
		"job id zero":                  {[]string{"0"}, "scancel: error: Invalid job id 0\n", "", 1},
		"bad array spec":               {[]string{"12_[1-3x"}, "scancel: error: Invalid job id 12_[1-3x\n", "", 1},
		"bad task":                     {[]string{"12_abc"}, "scancel: error: Invalid job id 12_abc\n", "", 1},
		"named batch step":             {[]string{"12.batch"}, "scancel: error: Invalid job id 12.batch\n", "", 1},
		"step of a range":              {[]string{"12_[1-3].0"}, "scancel: error: Invalid job id 12_[1-3].0\n", "", 1},
		"empty after comma":            {[]string{"12,"}, "scancel: error: Invalid job id \n", "", 1},
		"bad part of a list":           {[]string{"12,x"}, "scancel: error: Invalid job id x\n", "", 1},
		"unknown signal":               {[]string{"-s", "FOO", "1"}, "Unknown job signal: FOO\n", "", 1},
		"signal 0":                     {[]string{"-s", "0", "1"}, "Unknown job signal: 0\n", "", 1},
		"signal past 16 bits":          {[]string{"-s", "65536", "1"}, "Unknown job signal: 65536\n", "", 1},
		"batch prefix is not a signal": {[]string{"-s", "BUSR1", "1"}, "Unknown job signal: BUSR1\n", "", 1},
		"unknown user":                 {[]string{"-u", "nosuchuser"}, "scancel: error: Invalid user name: nosuchuser\n", "", 1},
		// Loam serves one cluster: -M is refused as the peer's scancel
		// refuses it without an accounting database, for any name.
		"a cluster": {[]string{"-M", "peer", "1"}, "scancel: error: Problem talking to database\n" +
			"scancel: error: 'peer' can't be reached now, or it is an invalid entry for --cluster.  " +
			"Use 'sacctmgr list clusters' to see available clusters.\n", "", 1},
		"bad state": {[]string{"-t", "bogus", "-u", "root"},
			"Invalid job state specified: bogus\nValid job states are PENDING, RUNNING, and SUSPENDED\n", "", 1},
		"unknown option": {[]string{"--foo"},
			"scancel: unrecognized option '--foo'\nTry \"scancel --help\" for more information\n", "", 1},
		"usage": {[]string{"--usage"}, "", `Usage: scancel [-A account] [--batch] [--full] [--interactive] [-n job_name]
               [-p partition] [-Q] [-q qos] [-R reservation] [-s signal | integer]
               [-t PENDING | RUNNING | SUSPENDED] [--usage] [-u user_name]
               [--hurry] [-V] [-v] [-w hosts...] [--wckey=wckey]
               [job_id[_array_id][.step_id]]
`, 0},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{jobs: scancelJobs()}
			te := newTestEnv(f, 1795949851)
			code := Scancel(context.Background(), te.Env, tc.args)
			if diff := cmp.Diff(tc.wantErr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantOut, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if code != tc.code {
				t.Errorf("exit = %d, want %d", code, tc.code)
			}
			if len(f.cancels) != 0 || len(f.queries) != 0 {
				t.Errorf("sent %d cancels and %d queries, want none", len(f.cancels), len(f.queries))
			}
		})
	}
}

func TestScancelHelpIsThePeers(t *testing.T) {
	want, err := os.ReadFile("testdata/peer/scancel-help.txt")
	if err != nil {
		t.Fatal(err)
	}
	te := newTestEnv(&fakeController{}, 1795949851)
	if code := Scancel(context.Background(), te.Env, []string{"--help"}); code != 0 {
		t.Errorf("exit = %d", code)
	}
	if diff := cmp.Diff(string(want), te.stdout.String()); diff != "" {
		t.Errorf("help (-want +got):\n%s", diff)
	}
}
