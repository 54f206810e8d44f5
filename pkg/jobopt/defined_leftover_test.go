package jobopt

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestDefinedLines checks the block sbatch -v prints against Slurm
// 22.05's, captured from the same command lines into testdata/defined.
func TestDefinedLines(t *testing.T) {
	const script = "#!/bin/bash\n#SBATCH -J fromscript\n#SBATCH --mem=1024M\ntrue\n"
	tests := map[string]struct {
		golden string
		env    []string
		args   []string
		// wantErr is the line after the block when the submission is
		// refused by a check Slurm makes after printing it.
		wantErr string
	}{
		"counts, names and a relative output file": {golden: "basic", args: []string{"-v", "--test-only", "--hold", "-N1", "-n2", "-c1",
			"--mem=100M", "-t", "5", "-J", "s13hjob", "-o", "out.%j", "--export=ALL,FOO=1", "-p", "batch", "--wrap", "sleep 1"}},
		"-vv, an array, a GRES and a begin time": {golden: "array", args: []string{"-vv", "--test-only", "--hold", "--gres=gpu:1",
			"--array=1-3", "--begin=2027-01-01T10:00", "--dependency=afterok:1", "-e", "err.txt", "--wrap", "true"}},
		"files under -D, none, aliases and UNLIMITED": {golden: "paths", args: []string{"-v", "--test-only", "-N", "2-2", "-s",
			"--tasks-per-node=1", "-o", "none", "-e", "rel/e.%j", "-D", "sub", "--nice=-5", "--mem-per-cpu=1500M", "-t", "UNLIMITED",
			"--ignore-pbs", "--wrap", "true"}},
		"many options in table order": {golden: "many", args: []string{"-v", "--hold", "-N", "2-3", "--ntasks-per-node=2",
			"--mem-per-cpu=1G", "-t", "1-2:3", "-A", "root", "-q", "normal", "--nice=5", "--exclusive", "-w", "cpu00[1-2]",
			"-x", "cpu003", "-C", "foo", "--comment=hi", "-D", "/tmp", "--open-mode=append", "--mail-type=END",
			"--mail-user=a@b", "-k", "--requeue", "--priority=10", "--gpus=2", "--cpus-per-gpu=2",
			"--deadline=2027-02-02T10:00", "--signal=B:USR1@60", "--time-min=10", "--test-only", "--wrap", "true"}},
		"the block comes before a GRES mix refusal": {golden: "gresmix", args: []string{"-v", "--hold", "--parsable", "-J", "x",
			"--array=0-9%2", "--mem=2G", "--gres=gpu:2,gpu:a100:1", "--gpus-per-node=1", "--gpus-per-task=1", "-n", "4",
			"--no-requeue", "--export=NONE", "--get-user-env", "--licenses=foo:2", "--reservation=r1", "--wckey=w", "-o", "/abs/o",
			"--uid=0", "-i", "in.txt", "--network=x", "--kill-on-invalid-dep=yes", "--tmp=10G", "--mincpus=2", "--spread-job",
			"--test-only", "--wrap", "true"},
			wantErr: "sbatch: error: Invalid GRES specification (with and without type identification)"},
		"keywords in Slurm's spelling": {golden: "words", args: []string{"-v", "--test-only", "--cpu-freq=low-highm1:performance",
			"--profile=task,energy", "--signal=R:USR2@120", "--mem=1536", "--switches=3@1:30:00", "--exclusive=mcs", "-t", "0:30",
			"--gres=none", "--wrap", "true"}},
		"zero memory and every profile": {golden: "zero", args: []string{"-v", "--test-only", "--profile=all", "--mem-per-cpu=0",
			"--tmp=1024", "--wrap", "true"}},
		"SBATCH_DEBUG, SBATCH_PARTITION and #SBATCH lines": {golden: "envscript", env: []string{"SBATCH_PARTITION=batch", "SBATCH_DEBUG=1"},
			args: []string{"--test-only", "--hold", "-N", "2", "--signal=10@60", "--exclusive=user", "--open-mode=truncate",
				"--begin=16:00", "--nice", "--gres=gpu", "--tmp=1500", "-t", "90", "--get-user-env=10L", "--contiguous", "--overcommit",
				"--switches=2@10", "--gpu-bind=closest", "--mail-type=BEGIN,FAIL", "--cpu-freq=high", "--propagate=ALL", "--prefer=foo",
				"--profile=none", "--acctg-freq=10", "--reboot", "--use-min-nodes", "-m", "block:cyclic", "s.sh"}},
	}
	for name, tc := range tests {
		raw, err := os.ReadFile(filepath.Join("testdata", "defined", tc.golden+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
		if tc.wantErr != "" {
			want = append(want, tc.wantErr)
		}
		got := definedRun(t, tc.env, script, tc.args)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: -v block (-want +got):\n%s", name, diff)
		}
	}
}

// definedRun parses a submission as the peer captures were made (in
// /tmp/s13h, just after midnight) and returns the -v block, or the
// error's lines when the submission is refused.
func definedRun(t *testing.T, env []string, script string, args []string) []string {
	t.Helper()
	p := &Parser{Env: env, Cwd: "/tmp/s13h", Now: time.Date(2026, 11, 30, 0, 15, 0, 0, time.Local), Root: true}
	cl, err := p.CommandLine(args)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	res, err := p.Submission(cl, []byte(script))
	var je *Error
	switch {
	case errors.As(err, &je):
		return je.Lines
	case err != nil:
		t.Fatalf("%v: %v", args, err)
	}
	return DefinedLines("sbatch", res.Defined)
}

func TestDefinedMemory(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"megabytes print bare":    {in: "100", want: "100"},
		"not a whole gigabyte":    {in: "1536", want: "1536"},
		"whole gigabytes":         {in: "2048M", want: "2G"},
		"terabytes":               {in: "1T", want: "1T"},
		"zero prints as in Slurm": {in: "0", want: "0?"},
	}
	for name, tc := range tests {
		if got := definedMemory(nil, value{str: tc.in}); got != tc.want {
			t.Errorf("%s: definedMemory(%q) = %q, want %q", name, tc.in, got, tc.want)
		}
	}
}
