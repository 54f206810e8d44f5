package jobopt

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/rlimit"
)

var testLimits = []rlimit.Limit{{Name: "STACK", Soft: 18446744073709551615}, {Name: "CORE", Soft: 0}, {Name: "NOFILE", Soft: 4096}}

// TestPropagateEnvironment: sbatch puts its soft limits in the job's
// environment as SLURM_RLIMIT_*, "U" marking those --propagate names, as
// the peer's sbatch does; --export=NONE keeps them (SLURM_* always go).
func TestPropagateEnvironment(t *testing.T) {
	tests := map[string]struct {
		args []string
		want []string
	}{
		"no --propagate: every limit": {want: []string{"SLURM_RLIMIT_STACK=18446744073709551615",
			"SLURM_RLIMIT_CORE=0", "SLURM_RLIMIT_NOFILE=4096"}},
		"--propagate: every limit, the user's": {args: []string{"--propagate"},
			want: []string{"SLURM_RLIMIT_STACK=U18446744073709551615", "SLURM_RLIMIT_CORE=U0", "SLURM_RLIMIT_NOFILE=U4096"}},
		"--propagate=STACK": {args: []string{"--propagate=STACK"}, want: []string{"SLURM_RLIMIT_STACK=U18446744073709551615"}},
		"--propagate=NONE":  {args: []string{"--propagate=NONE"}},
		"--export=NONE keeps them": {args: []string{"--export=NONE", "--propagate=NOFILE"},
			want: []string{"SLURM_RLIMIT_NOFILE=U4096"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Env: []string{"HOME=/home/u"}, Cwd: "/home/u", Now: testNow, Host: "login1", RLimits: testLimits}
			cl, err := p.CommandLine(append(tc.args, "job.sh"))
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Submission(cl, []byte("#!/bin/sh\n"))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, kv := range res.Request.Environment {
				if strings.HasPrefix(kv, rlimit.EnvPrefix) {
					got = append(got, kv)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPropagateSrun: srun keeps --propagate for the step's variables, and
// no longer warns that it ignores it.
func TestPropagateSrun(t *testing.T) {
	str := func(s string) *string { return &s }
	tests := map[string]struct {
		args []string
		want *string
	}{
		"not given": {args: []string{"true"}},
		"alone":     {args: []string{"--propagate", "true"}, want: str("")},
		"a list":    {args: []string{"--propagate=STACK,CORE", "true"}, want: str("STACK,CORE")},
		"NONE":      {args: []string{"--propagate=NONE", "true"}, want: str("NONE")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Env: []string{"SLURM_JOB_ID=12"}, Cwd: "/work"}
			got, err := p.Srun(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got.Step.Propagate); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			for _, w := range got.Warnings {
				if strings.Contains(w, "propagate") {
					t.Errorf("warning %q", w)
				}
			}
		})
	}
}
