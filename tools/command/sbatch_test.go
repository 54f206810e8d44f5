package command

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// The messages below are what the peer's sbatch printed for the same
// situations (see the notes in
// testdata/peer).
func TestSbatch(t *testing.T) {
	const now = 1795949851 // 2026-11-29T10:57:31Z
	script := "#!/bin/sh\n#SBATCH -J fromscript\n#SBATCH -t 10\necho hi\n"
	cases := map[string]struct {
		args       []string
		stdin      string
		files      map[string]string
		resp       *api.SubmitResponse
		err        error
		wantOut    string
		wantErr    string
		wantCode   int
		wantNoSend bool
	}{
		"wrap is submitted and its id printed": {
			args: []string{"--wrap", "true"}, wantOut: "Submitted batch job 100\n",
		},
		"parsable prints only the id": {
			args: []string{"--parsable", "--wrap=true"}, resp: &api.SubmitResponse{JobID: 7},
			wantOut: "7\n",
		},
		"parsable with a cluster name": {
			args: []string{"--parsable", "--wrap=true"}, resp: &api.SubmitResponse{JobID: 7, ClusterName: "peer"},
			wantOut: "7;peer\n",
		},
		"quiet prints nothing": {
			args: []string{"-Q", "--wrap=true"},
		},
		"script from a file in the working directory": {
			args: []string{"job.sh", "a"}, files: map[string]string{"/home/alice/work/job.sh": script},
			wantOut: "Submitted batch job 100\n",
		},
		"script from standard input": {
			stdin: script, wantOut: "Submitted batch job 100\n",
		},
		"missing script file": {
			args: []string{"nosuchfile"}, wantErr: "sbatch: error: Unable to open file nosuchfile\n",
			wantCode: 1, wantNoSend: true,
		},
		"script without a shebang": {
			args: []string{"job.sh"}, files: map[string]string{"/home/alice/work/job.sh": "echo hi\n"},
			wantErr: "sbatch: error: This does not look like a batch script.  The first\n" +
				"sbatch: error: line must start with #! followed by the path to an interpreter.\n" +
				"sbatch: error: For instance: #!/bin/sh\n",
			wantCode: 1, wantNoSend: true,
		},
		"unknown option exits 255": {
			args:     []string{"--foo", "--wrap=true"},
			wantErr:  "sbatch: unrecognized option '--foo'\nTry \"sbatch --help\" for more information\n",
			wantCode: 255, wantNoSend: true,
		},
		"controller rejection": {
			args: []string{"-p", "nosuch", "--wrap=true"}, err: api.NewError(api.CodeInvalidPartitionName),
			wantErr:  "sbatch: error: Batch job submission failed: Invalid partition name specified\n",
			wantCode: 1,
		},
		"controller rejection with a detail line first": {
			args: []string{"-p", "nosuch", "--wrap=true"},
			err:  api.Errorf(api.CodeInvalidPartitionName, "invalid partition specified: nosuch"),
			wantErr: "sbatch: error: invalid partition specified: nosuch\n" +
				"sbatch: error: Batch job submission failed: Invalid partition name specified\n",
			wantCode: 1,
		},
		"test-only prints the estimate on standard error": {
			args: []string{"--test-only", "--wrap=true"},
			resp: &api.SubmitResponse{TestOnly: &api.TestOnlyResult{JobID: 1108, StartTime: now, Nodes: "cpu001",
				Processors: 1, Partition: "normal"}},
			wantErr: "sbatch: Job 1108 to start at 2026-11-29T10:57:31 using 1 processors on nodes cpu001 in partition normal\n",
		},
		"test-only quiet hides the estimate, as the peer's sbatch -Q": {
			args: []string{"--test-only", "-Q", "--wrap=true"},
			resp: &api.SubmitResponse{TestOnly: &api.TestOnlyResult{JobID: 1108, StartTime: now, Nodes: "cpu001",
				Processors: 1, Partition: "normal"}},
		},
		"test-only quiet still prints a refusal": {
			args:     []string{"--test-only", "-Q", "-p", "nosuch", "--wrap=true"},
			err:      api.NewError(api.CodeInvalidPartitionName),
			wantErr:  "allocation failure: Invalid partition name specified\n",
			wantCode: 1,
		},
		"test-only refused": {
			args: []string{"--test-only", "-p", "nosuch", "--wrap=true"},
			err:  api.Errorf(api.CodeInvalidPartitionName, "invalid partition specified: nosuch"),
			wantErr: "sbatch: error: invalid partition specified: nosuch\n" +
				"allocation failure: Invalid partition name specified\n",
			wantCode: 1,
		},
		"unknown gres: one line, as Slurm's sbatch refuses it": {
			args:     []string{"--gres=foo:1", "--wrap=true"},
			err:      api.Errorf(api.CodeInvalidGRES, `no node has gres "foo"`),
			wantErr:  "sbatch: error: Invalid generic resource (gres) specification\n",
			wantCode: 1,
		},
		"unknown gres with --test-only": {
			args:     []string{"--test-only", "--gres=foo:1", "--wrap=true"},
			err:      api.Errorf(api.CodeInvalidGRES, `no node has gres "foo"`),
			wantErr:  "sbatch: error: Invalid generic resource (gres) specification\n",
			wantCode: 1,
		},
		"a refusal Slurm does not make keeps Loam's detail": {
			args: []string{"-t", "3-00:00:00", "--wrap=true"},
			err:  api.Errorf(api.CodeInvalidTimeLimit, "time limit 3-00:00:00 exceeds MaxTime=2-00:00:00 of partition normal"),
			wantErr: "sbatch: error: time limit 3-00:00:00 exceeds MaxTime=2-00:00:00 of partition normal\n" +
				"sbatch: error: Batch job submission failed: Requested time limit is invalid (missing or exceeds some limit)\n",
			wantCode: 1,
		},
		"controller warnings are printed": {
			args: []string{"--wrap=true"}, resp: &api.SubmitResponse{JobID: 9, Warnings: []string{"afterok:5 was dropped"}},
			wantOut: "Submitted batch job 9\n", wantErr: "sbatch: warning: afterok:5 was dropped\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{now: now, submitResp: tc.resp, err: tc.err}
			te := newTestEnv(f, now)
			te.Stdin = strings.NewReader(tc.stdin)
			for p, body := range tc.files {
				te.files[p] = []byte(body)
			}
			code := Sbatch(context.Background(), te.Env, tc.args)
			if diff := cmp.Diff(tc.wantOut, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantErr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if code != tc.wantCode {
				t.Errorf("exit = %d, want %d", code, tc.wantCode)
			}
			if sent := len(f.submits) > 0; sent == tc.wantNoSend {
				t.Errorf("submitted = %v, want %v", sent, !tc.wantNoSend)
			}
		})
	}
}

// TestSbatchRequest checks what sbatch sends: the script, the
// submitter's directory, host and environment, the #SBATCH options.
func TestSbatchRequest(t *testing.T) {
	f := &fakeController{}
	te := newTestEnv(f, 1795949851)
	te.files["/home/alice/work/job.sh"] = []byte("#!/bin/sh\n#SBATCH -J fromscript\n#SBATCH -t 10\necho hi\n")
	te.Environ = append(te.Environ, "MYVAR=1")
	if code := Sbatch(context.Background(), te.Env, []string{"-p", "batch", "job.sh", "x"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	req := f.submits[0]
	if req.SubmitHost != "login1" || req.Job.SubmitHost != "login1" || req.Job.SubmitDir != "/home/alice/work" {
		t.Errorf("submit host/dir = %q %q %q", req.SubmitHost, req.Job.SubmitHost, req.Job.SubmitDir)
	}
	if req.Job.Name != "fromscript" || !slices.Equal(req.Job.Partitions, []string{"batch"}) {
		t.Errorf("name %q partitions %q", req.Job.Name, req.Job.Partitions)
	}
	if req.Job.TimeLimit == nil || *req.Job.TimeLimit != 10*time.Minute {
		t.Errorf("time limit = %v, want 10m", req.Job.TimeLimit)
	}
	if !strings.Contains(req.Job.Script, "echo hi") || req.Job.WorkDir != "/home/alice/work" {
		t.Errorf("script %q workdir %q", req.Job.Script, req.Job.WorkDir)
	}
	for _, want := range []string{"MYVAR=1", "SLURM_UMASK=0022", "SLURM_PRIO_PROCESS=0", "SLURM_SUBMIT_HOST=login1"} {
		if !slices.Contains(req.Job.Environment, want) {
			t.Errorf("environment lacks %s", want)
		}
	}
}

// TestSbatchWait checks --wait: sbatch polls with Slurm's back-off and
// exits with the job's exit status.
func TestSbatchWait(t *testing.T) {
	f := &fakeController{submitResp: &api.SubmitResponse{JobID: 5}}
	polls := 0
	f.jobs = []api.Job{{JobID: 5, JobState: job.Running}}
	te := newTestEnv(f, 1795949851)
	te.Sleep = func(ctx context.Context, d time.Duration) error {
		te.slept = append(te.slept, d)
		if polls++; polls == 2 {
			f.jobs[0].JobState, f.jobs[0].ExitCode = job.Failed, job.ExitCode{Status: 3}
		}
		return nil
	}
	code := Sbatch(context.Background(), te.Env, []string{"--wait", "--wrap", "exit 3"})
	if code != 3 {
		t.Errorf("exit = %d, want 3 (the job's)", code)
	}
	if diff := cmp.Diff([]time.Duration{2 * time.Second, 8 * time.Second}, te.slept); diff != "" {
		t.Errorf("sleeps (-want +got):\n%s", diff)
	}
}

// TestSbatchRetry checks that a busy controller is asked again.
func TestSbatchRetry(t *testing.T) {
	f := &fakeController{err: api.NewError(api.CodeAgain)}
	te := newTestEnv(f, 1795949851)
	te.Sleep = func(ctx context.Context, d time.Duration) error {
		te.slept = append(te.slept, d)
		f.err = nil
		return nil
	}
	code := Sbatch(context.Background(), te.Env, []string{"--wrap", "true"})
	if code != 0 || te.stdout.String() != "Submitted batch job 100\n" {
		t.Errorf("exit %d stdout %q stderr %q", code, te.stdout, te.stderr)
	}
	if te.stderr.String() != "sbatch: error: Slurm temporarily unable to accept job, sleeping and retrying\n" {
		t.Errorf("stderr = %q", te.stderr)
	}
}
