package jobopt

import (
	"errors"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSallocOptionEnv: the SLURM_* variables the peer's salloc set in its
// command's environment from the options (the allocation's own
// variables, SLURM_JOB_ID and the like, are the command's).
func TestSallocOptionEnv(t *testing.T) {
	tests := map[string]struct {
		args []string
		want []string
	}{
		"nothing asked": {args: []string{"-N1", "env"}, want: nil},
		"tasks per node and cpus per task": {args: []string{"-N2", "-n4", "-c2", "--ntasks-per-node=2", "env"},
			want: []string{"SLURM_CPUS_PER_TASK=2", "SLURM_NTASKS_PER_NODE=2"}},
		"gpus and passed-over options": {args: []string{"-N1", "-n2", "--gpus=1", "--gpus-per-node=1",
			"--distribution=block", "--overcommit", "--threads-per-core=1", "--ntasks-per-core=1", "--profile=none", "env"},
			want: []string{"SLURM_DISTRIBUTION=block", "SLURM_GPUS=1", "SLURM_GPUS_PER_NODE=1", "SLURM_NTASKS_PER_CORE=1",
				"SLURM_OVERCOMMIT=1", "SLURM_PROFILE=None", "SLURM_THREADS_PER_CORE=1"}},
		"per-gpu and binding options": {args: []string{"-N1", "-n2", "--gpus-per-task=1", "--mem-per-gpu=100",
			"--cpus-per-gpu=2", "--hint=nomultithread", "--gpu-bind=closest", "--cpu-freq=high", "--mem-bind=local",
			"--ntasks-per-socket=1", "--gpu-freq=low", "env"},
			want: []string{"SLURM_CPUS_PER_GPU=2", "SLURM_CPU_FREQ_REQ=High", "SLURM_GPUS_PER_TASK=1", "SLURM_GPU_BIND=closest",
				"SLURM_GPU_FREQ=low", "SLURM_HINT=nomultithread", "SLURM_MEM_BIND=local", "SLURM_MEM_BIND_VERBOSE=quiet",
				"SLURM_MEM_PER_GPU=100", "SLURM_NTASKS_PER_SOCKET=1", "SLURM_THREADS_PER_CORE=1"}},
		"an account": {args: []string{"-A", "root", "env"}, want: []string{"SLURM_JOB_ACCOUNT=root"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Cwd: "/work"}
			res, err := p.Salloc(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			got := append([]string(nil), res.OptionEnv...)
			sort.Strings(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("variables (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSallocImmediateAndName: -I's seconds as the peer's salloc reads
// them (none: 1, at once; 0: no -I, it waits), and the job name of
// --no-shell.
func TestSallocImmediateAndName(t *testing.T) {
	one, three := 1, 3
	tests := map[string]struct {
		args     []string
		env      []string
		want     *int
		wantName string
	}{
		"no -I":                  {args: []string{"true"}, wantName: "interactive"},
		"-I alone is at once":    {args: []string{"-I", "true"}, want: &one, wantName: "interactive"},
		"-I3 waits three":        {args: []string{"-I3", "true"}, want: &three, wantName: "interactive"},
		"--immediate=0 is no -I": {args: []string{"--immediate=0", "true"}, wantName: "interactive"},
		"SALLOC_IMMEDIATE empty": {env: []string{"SALLOC_IMMEDIATE="}, args: []string{"true"}, want: &one, wantName: "interactive"},
		"--no-shell names it":    {args: []string{"--no-shell"}, wantName: "no-shell"},
		"-J wins over no-shell":  {args: []string{"--no-shell", "-J", "x"}, wantName: "x"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Cwd: "/work", Env: tc.env, Prog: "salloc"}
			res, err := p.Salloc(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, res.Step.Immediate); diff != "" {
				t.Errorf("immediate (-want +got):\n%s", diff)
			}
			if res.Request.Name != tc.wantName {
				t.Errorf("name %q, want %q", res.Request.Name, tc.wantName)
			}
		})
	}
}

// TestSallocImmediateInvalid: -I's seconds that are not a number, with
// the peer's words and exit status.
func TestSallocImmediateInvalid(t *testing.T) {
	for _, arg := range []string{"-Iabc", "-I-1", "-I0x"} {
		p := &Parser{Cwd: "/work", Prog: "salloc"}
		_, err := p.Salloc([]string{arg, "true"})
		var je *Error
		if !errors.As(err, &je) {
			t.Fatalf("%s: error %v, want an option error", arg, err)
		}
		want := []string{`salloc: error: Invalid numeric value "` + arg[2:] + `" for immediate.`}
		if diff := cmp.Diff(want, je.Lines); diff != "" || je.Code != ExitError {
			t.Errorf("%s: exit %d, lines (-want +got):\n%s", arg, je.Code, diff)
		}
	}
}
