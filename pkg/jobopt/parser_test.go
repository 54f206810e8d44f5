package jobopt

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var testNow = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

func submit(t *testing.T, env []string, script string, args ...string) (*Result, error) {
	t.Helper()
	p := &Parser{Env: env, Cwd: "/home/u", Now: testNow, Host: "login1"}
	cl, err := p.CommandLine(args)
	if err != nil {
		return nil, err
	}
	return p.Submission(cl, []byte(script))
}

func TestEarlyActions(t *testing.T) {
	tests := map[string]struct {
		args    []string
		want    Action
		wantErr string
	}{
		"help":                      {args: []string{"--help"}, want: Help},
		"usage by prefix":           {args: []string{"--usa"}, want: Usage},
		"version":                   {args: []string{"-V", "--foo"}, want: Version},
		"help stops the first pass": {args: []string{"--help", "-N", "abc"}, want: Help},
		"a bad value before help":   {args: []string{"-N", "abc", "--help"}, wantErr: `sbatch: error: "abc" is not a valid node count`},
		"no action":                 {args: []string{"job.sh"}, want: Submit},
	}
	for name, tc := range tests {
		cl, err := (&Parser{Cwd: "/"}).CommandLine(tc.args)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("%s: err = %v, want %q", name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || cl.Action != tc.want {
			t.Errorf("%s: CommandLine = %+v, %v; want action %d", name, cl, err, tc.want)
		}
	}
}

func TestClientFlags(t *testing.T) {
	res, err := submit(t, []string{"SBATCH_WAIT=yes"}, "#!/bin/sh\n#SBATCH --parsable\n#SBATCH --quiet\n", "--test-only", "job.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Parsable || !res.TestOnly || !res.Wait || res.Quiet {
		t.Errorf("flags = parsable %v, test-only %v, wait %v, quiet %v; want true, true, true, false (-Q is ignored in scripts)",
			res.Parsable, res.TestOnly, res.Wait, res.Quiet)
	}
	res, err = submit(t, []string{"SBATCH_DEBUG=2"}, "#!/bin/sh\n", "job.sh")
	if err != nil || res.Verbose != 2 {
		t.Errorf("SBATCH_DEBUG=2: verbose %v, %v", res, err)
	}
}

func TestUnsupportedOptionsWarn(t *testing.T) {
	res, err := submit(t, []string{"SBATCH_PROFILE=all"}, "#!/bin/sh\n#SBATCH --context=x\n", "--mem-bind=local", "job.sh")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"sbatch: warning: Loam ignores --context", "sbatch: warning: Loam ignores --mem-bind"}
	if diff := cmp.Diff(want, res.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestShownOptions: --container, --mcs-label and --gpu-freq are kept
// for scontrol show job (the peer shows Container=/tmp, MCS_label=x and
// TresFreq=gpu:medium,memory=low) without a warning, and the job sees
// SLURM_CONTAINER and SLURM_GPU_FREQ as on the peer.
func TestShownOptions(t *testing.T) {
	res, err := submit(t, nil, "#!/bin/sh\n#SBATCH --mcs-label=x\n", "--container=/tmp", "--gpu-freq=medium,memory=low", "job.sh")
	if err != nil {
		t.Fatal(err)
	}
	q := res.Request
	if q.Container != "/tmp" || q.MCSLabel != "x" || q.TresFreq != "gpu:medium,memory=low" || len(res.Warnings) != 0 {
		t.Errorf("container %q, mcs label %q, tres freq %q, warnings %q", q.Container, q.MCSLabel, q.TresFreq, res.Warnings)
	}
	for _, kv := range []string{"SLURM_CONTAINER=/tmp", "SLURM_GPU_FREQ=medium,memory=low"} {
		if !slices.Contains(q.Environment, kv) {
			t.Errorf("job environment lacks %s", kv)
		}
	}
}

func TestEnvironment(t *testing.T) {
	env := []string{"HOME=/home/u", "FOO=1", "SLURM_CONF=/etc/slurm/slurm.conf"}
	tests := map[string]struct {
		args []string
		want []string
	}{
		"everything by default": {args: []string{"-J", "x", "-n", "4", "job.sh"}, want: []string{
			"HOME=/home/u", "FOO=1", "SLURM_CONF=/etc/slurm/slurm.conf", "SLURM_JOB_NAME=x",
			"SLURM_SUBMIT_DIR=/home/u", "SLURM_SUBMIT_HOST=login1", "SLURM_NPROCS=4", "SLURM_NTASKS=4"}},
		"NONE keeps SLURM variables only": {args: []string{"--export=NONE", "--open-mode=a", "-d", "afterok:5", "job.sh"}, want: []string{
			"SLURM_CONF=/etc/slurm/slurm.conf", "SLURM_JOB_NAME=job.sh", "SLURM_OPEN_MODE=a",
			"SLURM_JOB_DEPENDENCY=afterok:5", "SLURM_EXPORT_ENV=NONE", "SLURM_GET_USER_ENV=1", "SLURM_SUBMIT_DIR=/home/u", "SLURM_SUBMIT_HOST=login1"}},
		"--get-user-env asks the node for the login environment": {args: []string{"--get-user-env", "job.sh"}, want: []string{
			"HOME=/home/u", "FOO=1", "SLURM_CONF=/etc/slurm/slurm.conf", "SLURM_JOB_NAME=job.sh", "SLURM_GET_USER_ENV=1",
			"SLURM_SUBMIT_DIR=/home/u", "SLURM_SUBMIT_HOST=login1"}},
		"a list with a value and GPU variables": {args: []string{"--export=FOO,BAR=2", "--gpus-per-node=h100:2", "-c", "8", "job.sh"}, want: []string{
			"FOO=1", "BAR=2", "SLURM_CONF=/etc/slurm/slurm.conf", "SLURM_JOB_NAME=job.sh",
			"SLURM_EXPORT_ENV=FOO,BAR=2", "SLURM_GET_USER_ENV=1", "SLURM_SUBMIT_DIR=/home/u", "SLURM_SUBMIT_HOST=login1",
			"SLURM_GPUS_PER_NODE=h100:2", "SLURM_CPUS_PER_TASK=8"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			res, err := submit(t, env, "#!/bin/sh\n", tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, res.Request.Environment); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestStdinScriptIsNamedSbatch(t *testing.T) {
	res, err := submit(t, nil, "#!/bin/sh\n")
	if err != nil {
		t.Fatal(err)
	}
	if res.Request.Name != "sbatch" || res.Request.Argv != nil {
		t.Errorf("name %q, argv %q; want sbatch and none", res.Request.Name, res.Request.Argv)
	}
	for _, kv := range res.Request.Environment {
		if strings.HasPrefix(kv, "SLURM_JOB_NAME=") {
			t.Errorf("a job from stdin exports %s", kv)
		}
	}
}

func TestDataPaths(t *testing.T) {
	res, err := submit(t, []string{"SBATCH_DATA=/env"}, "#!/bin/sh\n#SBATCH --data=/s1,/s2\n", "job.sh")
	if err != nil || !cmp.Equal(res.Request.DataPaths, []string{"/env"}) {
		t.Errorf("env over script: %v, %v", res, err)
	}
	res, err = submit(t, nil, "#!/bin/sh\n#SBATCH --data=/s1,/s2\n", "--data=/a,,/b", "job.sh")
	if err != nil || !cmp.Equal(res.Request.DataPaths, []string{"/a", "/b"}) {
		t.Errorf("argv over script: %v, %v", res.Request.DataPaths, err)
	}
}

func TestScriptErrors(t *testing.T) {
	tests := map[string]struct {
		env    []string
		script string
		want   *Error
	}{
		"SLURM_EXIT_ERROR sets the status": {env: []string{"SLURM_EXIT_ERROR=7"}, script: "",
			want: &Error{Code: 7, Lines: []string{"sbatch: error: Batch script is empty!"}}},
		"a fatal parse error is always 1": {env: []string{"SLURM_EXIT_ERROR=7"}, script: "#!/bin/sh\n#SBATCH 'x\n",
			want: &Error{Code: 1, Lines: []string{"sbatch: fatal: job.sh: line 2: Unmatched `'` in ['x]"}}},
		"het jobs are refused": {script: "#!/bin/sh\n#SBATCH -N 1\n#SBATCH hetjob\n#SBATCH -N 2\n",
			want: &Error{Code: 1, Lines: []string{"sbatch: error: Loam does not support heterogeneous jobs (#SBATCH hetjob)"}}},
	}
	for name, tc := range tests {
		_, err := submit(t, tc.env, tc.script, "job.sh")
		if diff := cmp.Diff(tc.want, err); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", name, diff)
		}
	}
}

func TestScriptCandidates(t *testing.T) {
	tests := map[string]struct {
		script string
		want   []string
	}{
		"a bare name: work dir, then PATH": {"job.sh", []string{"/w/job.sh", "/usr/bin/job.sh", "/w/./bin/job.sh"}},
		"an absolute path is used as is":   {"/x/job.sh", nil},
		"a relative ./ path is used as is": {"./job.sh", nil},
	}
	for name, tc := range tests {
		cl := &CommandLine{Script: tc.script, WorkDir: "/w"}
		if diff := cmp.Diff(tc.want, cl.ScriptCandidates("/usr/bin::./bin")); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", name, diff)
		}
	}
}

func TestUIDIsForRootOnly(t *testing.T) {
	_, err := submit(t, nil, "#!/bin/sh\n", "--uid=alice", "job.sh")
	want := &Error{Code: ExitClient, Lines: []string{"sbatch: error: --uid only permitted by root user"}}
	if diff := cmp.Diff(want, err); diff != "" {
		t.Errorf("non-root --uid (-want +got):\n%s", diff)
	}
	p := &Parser{Cwd: "/", Root: true}
	cl, err := p.CommandLine([]string{"--uid=alice", "job.sh"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Submission(cl, []byte("#!/bin/sh\n"))
	if err != nil || res.Request.RunAsUser != "alice" {
		t.Errorf("root --uid: %v, %v", res, err)
	}
}

// The peer's sbatch refuses --gid from a user before it reads the value,
// and an empty group from root.
func TestGIDIsForRootOnly(t *testing.T) {
	tests := map[string]struct {
		root bool
		arg  string
		want error
	}{
		"a user's --gid": {arg: "--gid=0",
			want: &Error{Code: ExitClient, Lines: []string{"sbatch: error: --gid only permitted by root user"}}},
		"a user's unknown group": {arg: "--gid=nosuch",
			want: &Error{Code: ExitClient, Lines: []string{"sbatch: error: --gid only permitted by root user"}}},
		"root's empty group": {root: true, arg: "--gid=",
			want: &Error{Code: ExitClient, Lines: []string{"sbatch: error: Invalid --gid specification"}}},
		"root's group": {root: true, arg: "--gid=root"},
	}
	for name, tc := range tests {
		p := &Parser{Cwd: "/", Root: tc.root}
		cl, err := p.CommandLine([]string{tc.arg, "job.sh"})
		if err == nil {
			_, err = p.Submission(cl, []byte("#!/bin/sh\n"))
		}
		if diff := cmp.Diff(tc.want, err); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}
