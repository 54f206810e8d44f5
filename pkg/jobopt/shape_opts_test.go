package jobopt

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestShapeOptions checks the request fields sbatch derives from
// --ntasks-per-gpu and -O, with the values the peer's jobs showed
// (scontrol show job NumTasks, SLURM_NTASKS in the script).
func TestShapeOptions(t *testing.T) {
	type shape struct {
		NTasks     int
		Overcommit bool
		Env        []string
	}
	tests := map[string]struct {
		args []string
		want shape
	}{
		"--ntasks-per-gpu=1 --gpus=2 is 2 tasks": {args: []string{"--ntasks-per-gpu=1", "--gpus=2"},
			want: shape{NTasks: 2, Env: []string{"SLURM_NPROCS=2", "SLURM_NTASKS=2", "SLURM_NTASKS_PER_GPU=1"}}},
		"--ntasks-per-gpu=2 --gpus=3 is 6 tasks": {args: []string{"--ntasks-per-gpu=2", "--gpus=3"},
			want: shape{NTasks: 6, Env: []string{"SLURM_NPROCS=6", "SLURM_NTASKS=6", "SLURM_NTASKS_PER_GPU=2"}}},
		"--ntasks-per-gpu=1 --gpus-per-node=2 -N2 is 4 tasks": {args: []string{"--ntasks-per-gpu=1", "--gpus-per-node=2", "-N2"},
			want: shape{NTasks: 4, Env: []string{"SLURM_NPROCS=4", "SLURM_NTASKS=4", "SLURM_NTASKS_PER_GPU=1"}}},
		"--ntasks-per-gpu=2 --gres=gpu:2 is 4 tasks": {args: []string{"--ntasks-per-gpu=2", "--gres=gpu:2"},
			want: shape{NTasks: 4, Env: []string{"SLURM_NPROCS=4", "SLURM_NTASKS=4", "SLURM_NTASKS_PER_GPU=2"}}},
		"--gpus-per-task=2 -N2 is a task a node": {args: []string{"--gpus-per-task=2", "-N2"},
			want: shape{NTasks: 2, Env: []string{"SLURM_NPROCS=2", "SLURM_NTASKS=2"}}},
		"--gpus=16 --gpus-per-task=2 is 8 tasks": {args: []string{"--gpus=16", "--gpus-per-task=2"},
			want: shape{NTasks: 8, Env: []string{"SLURM_NPROCS=8", "SLURM_NTASKS=8"}}},
		"-n beats --ntasks-per-gpu": {args: []string{"--ntasks-per-gpu=1", "--gpus=2", "-n3"},
			want: shape{NTasks: 3, Env: []string{"SLURM_NPROCS=3", "SLURM_NTASKS=3", "SLURM_NTASKS_PER_GPU=1"}}},
		"-N3 --ntasks-per-gpu=3 is 9 tasks": {args: []string{"-N3", "--ntasks-per-gpu=3"},
			want: shape{NTasks: 9, Env: []string{"SLURM_NPROCS=9", "SLURM_NTASKS=9", "SLURM_NTASKS_PER_GPU=3"}}},
		"-O -n2 overcommits": {args: []string{"-O", "-n2"},
			want: shape{NTasks: 2, Overcommit: true, Env: []string{"SLURM_NPROCS=2", "SLURM_NTASKS=2", "SLURM_OVERCOMMIT=1"}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			res, err := submit(t, []string{"HOME=/home/u"}, "#!/bin/sh\n", append(tc.args, "job.sh")...)
			if err != nil {
				t.Fatal(err)
			}
			got := shape{NTasks: res.Request.NTasks, Overcommit: res.Request.Overcommit}
			for _, kv := range res.Request.Environment {
				if !slicesHasPrefix(kv, "SLURM_JOB_NAME=", "SLURM_SUBMIT_DIR=", "SLURM_SUBMIT_HOST=", "SLURM_GPUS") && len(kv) > 6 && kv[:6] == "SLURM_" {
					got.Env = append(got.Env, kv)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func slicesHasPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if len(s) >= len(p) && s[:len(p)] == p {
			return true
		}
	}
	return false
}

// TestNTasksPerGPURefusesZero matches sbatch's numeric check.
func TestNTasksPerGPURefusesZero(t *testing.T) {
	_, err := submit(t, []string{"HOME=/home/u"}, "#!/bin/sh\n", "--ntasks-per-gpu=0", "job.sh")
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("--ntasks-per-gpu=0: got %v, want an *Error", err)
	}
	want := &Error{Code: ExitError, Lines: []string{`sbatch: error: Invalid numeric value "0" for --ntasks-per-gpu.`}}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
