package command

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
)

// TestAllocationRefusedExitError: a refused allocation exits with
// SLURM_EXIT_ERROR when it is set, as the peer's srun and salloc -p nosuch
// exit 7 with SLURM_EXIT_ERROR=7 (1 without it).
func TestAllocationRefusedExitError(t *testing.T) {
	tests := map[string]struct {
		prog string
		env  []string
		want int
	}{
		"srun with SLURM_EXIT_ERROR=7":      {prog: "srun", env: []string{"SLURM_EXIT_ERROR=7"}, want: 7},
		"salloc with SLURM_EXIT_ERROR=7":    {prog: "salloc", env: []string{"SLURM_EXIT_ERROR=7"}, want: 7},
		"salloc -I with SLURM_EXIT_ERROR=9": {prog: "salloc", env: []string{"SLURM_EXIT_ERROR=9"}, want: 9},
		"srun without it":                   {prog: "srun", want: 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeSteps{fakeController: &fakeController{}, t: t, allocErr: api.NewError(api.CodeInvalidPartitionName)}
			te := newTestEnv(f.fakeController, 1_800_000_000)
			te.Environ = append(te.Environ, tc.env...)
			te.Dial = func(context.Context) (Controller, error) { return f, nil }
			h := stepHooks{notify: func(chan<- os.Signal) func() { return func() {} }}
			run, args := runSrun, []string{"-p", "nosuch", "true"}
			if tc.prog == "salloc" {
				run = runSalloc
			}
			if name == "salloc -I with SLURM_EXIT_ERROR=9" {
				args = append([]string{"-I"}, args...)
			}
			if code := run(context.Background(), te.Env, args, h); code != tc.want {
				t.Errorf("exit status %d, want %d; stderr %q", code, tc.want, te.stderr.String())
			}
		})
	}
}

// TestStepDefinedOptions: srun -v and salloc -v print the block of
// options set, as the peer's do (captured from srun -v -N1 -t 1 -J sr and
// salloc -v --hold -N1 -t 1 -J sa), before asking for the allocation.
func TestStepDefinedOptions(t *testing.T) {
	tests := map[string]struct {
		prog string
		args []string
		want string
	}{
		"srun": {prog: "srun", args: []string{"-v", "-N1", "-t", "1", "-J", "sr", "true"},
			want: "srun: defined options\n" +
				"srun: -------------------- --------------------\n" +
				"srun: job-name            : sr\n" +
				"srun: nodes               : 1\n" +
				"srun: time                : 00:01:00\n" +
				"srun: verbose             : 1\n" +
				"srun: -------------------- --------------------\n" +
				"srun: end of defined options\n"},
		"salloc": {prog: "salloc", args: []string{"-v", "--hold", "-N1", "-t", "1", "-J", "sa", "true"},
			want: "salloc: defined options\n" +
				"salloc: -------------------- --------------------\n" +
				"salloc: hold                : set\n" +
				"salloc: job-name            : sa\n" +
				"salloc: nodes               : 1\n" +
				"salloc: time                : 00:01:00\n" +
				"salloc: verbose             : 1\n" +
				"salloc: -------------------- --------------------\n" +
				"salloc: end of defined options\n"},
		"srun keeps -o as given and -K is 1": {prog: "srun", args: []string{"-v", "-o", "o.%t", "-K", "true"},
			want: "srun: defined options\n" +
				"srun: -------------------- --------------------\n" +
				"srun: kill-on-bad-exit    : 1\n" +
				"srun: output              : o.%t\n" +
				"srun: verbose             : 1\n" +
				"srun: -------------------- --------------------\n" +
				"srun: end of defined options\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeSteps{fakeController: &fakeController{}, t: t, allocErr: api.NewError(api.CodeInvalidPartitionName)}
			te := newTestEnv(f.fakeController, 1_800_000_000)
			te.Dial = func(context.Context) (Controller, error) { return f, nil }
			h := stepHooks{notify: func(chan<- os.Signal) func() { return func() {} }}
			run := runSrun
			if tc.prog == "salloc" {
				run = runSalloc
			}
			run(context.Background(), te.Env, tc.args, h)
			got := te.stderr.String()
			if len(got) > len(tc.want) {
				got = got[:len(tc.want)]
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}
