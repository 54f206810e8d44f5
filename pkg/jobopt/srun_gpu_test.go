package jobopt

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSrunGPUOptionErrors: the peer's srun refusals of --gpu-bind without
// a binding and of --ntasks-per-gpu with options it excludes (round 14).
func TestSrunGPUOptionErrors(t *testing.T) {
	tests := map[string]struct {
		env       []string
		args      []string
		wantCode  int
		wantLines []string
	}{
		"--gpu-bind=verbose alone": {args: []string{"--gpu-bind=verbose", "true"}, wantCode: 255,
			wantLines: []string{"srun: error: Invalid --gpu-bind argument: gpu:verbose"}},
		"--gpu-bind=quiet": {args: []string{"--gpu-bind=quiet", "true"}, wantCode: 255,
			wantLines: []string{"srun: error: Invalid --gpu-bind argument: gpu:quiet"}},
		"--gpu-bind=quiet,none": {args: []string{"--gpu-bind=quiet,none", "true"}, wantCode: 255,
			wantLines: []string{"srun: error: Invalid --gpu-bind argument: gpu:quiet,none"}},
		"--gpu-bind=v,none": {args: []string{"--gpu-bind=v,none", "true"}, wantCode: 255,
			wantLines: []string{"srun: error: Invalid --gpu-bind argument: gpu:v,none"}},
		"empty --gpu-bind": {args: []string{"--gpu-bind=", "true"}, wantCode: 255,
			wantLines: []string{"srun: error: Invalid --gpu-bind argument: gpu:"}},
		"--ntasks-per-gpu=0": {args: []string{"--ntasks-per-gpu=0", "true"}, wantCode: 1,
			wantLines: []string{`srun: error: Invalid numeric value "0" for --ntasks-per-gpu.`}},
		"--ntasks-per-gpu with --ntasks-per-node": {args: []string{"-N1", "--ntasks-per-node=1", "--ntasks-per-gpu=1", "true"}, wantCode: 1,
			wantLines: []string{"srun: fatal: --ntasks-per-node is mutually exclusive with --ntasks-per-gpu and SLURM_NTASKS_PER_GPU"}},
		"--ntasks-per-gpu inside salloc --ntasks-per-node": {env: []string{"SLURM_JOB_ID=12", "SLURM_NTASKS_PER_NODE=8"},
			args: []string{"-n4", "--ntasks-per-gpu=2", "true"}, wantCode: 1,
			wantLines: []string{"srun: fatal: SLURM_NTASKS_PER_NODE is mutually exclusive with --ntasks-per-gpu and SLURM_NTASKS_PER_GPU"}},
		"SLURM_NTASKS_PER_GPU with --ntasks-per-node": {env: []string{"SLURM_NTASKS_PER_GPU=1"}, args: []string{"-N1", "--ntasks-per-node=1", "true"}, wantCode: 1,
			wantLines: []string{"srun: fatal: --ntasks-per-node is mutually exclusive with --ntasks-per-gpu and SLURM_NTASKS_PER_GPU"}},
		"--ntasks-per-gpu with --gpus-per-task": {args: []string{"-N1", "--gpus-per-task=1", "--ntasks-per-gpu=2", "true"}, wantCode: 1,
			wantLines: []string{"srun: fatal: --gpus-per-task is mutually exclusive with --ntasks-per-gpu and SLURM_NTASKS_PER_GPU"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := (&Parser{Env: tc.env, Cwd: "/work"}).Srun(tc.args)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want *Error", err)
			}
			if e.Code != tc.wantCode {
				t.Errorf("exit status %d, want %d", e.Code, tc.wantCode)
			}
			if diff := cmp.Diff(tc.wantLines, e.Lines); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSrunGPUBindAccepted: what the peer's srun takes, and the binding
// --ntasks-per-gpu makes (srun -n4 --gpus=2 --ntasks-per-gpu=2 shows
// SLURMD_TRES_BIND=gpu:single:2).
func TestSrunGPUBindAccepted(t *testing.T) {
	tests := map[string]struct {
		args []string
		want string
	}{
		"verbose first":                    {args: []string{"--gpu-bind=verbose,map_gpu:3,1", "true"}, want: "verbose,map_gpu:3,1"},
		"verbose in capitals":              {args: []string{"--gpu-bind=VERBOSE,NONE", "true"}, want: "VERBOSE,NONE"},
		"verbose after the binding":        {args: []string{"--gpu-bind=closest,verbose", "true"}, want: "closest,verbose"},
		"--ntasks-per-gpu binds single:N":  {args: []string{"-n4", "--gpus=2", "--ntasks-per-gpu=2", "true"}, want: "single:2"},
		"--gpu-bind wins over the default": {args: []string{"-n4", "--gpus=2", "--ntasks-per-gpu=2", "--gpu-bind=none", "true"}, want: "none"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := (&Parser{Cwd: "/work"}).Srun(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if got.Step.GPUBind != tc.want {
				t.Errorf("GPUBind = %q, want %q", got.Step.GPUBind, tc.want)
			}
		})
	}
}
