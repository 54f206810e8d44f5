package jobopt

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/resource"
)

// TestS16TasksPerGPUDerivesGPUs: the peer's srun -n4 --ntasks-per-gpu=2
// without a GPU option is given two GPUs (CUDA_VISIBLE_DEVICES 0 for tasks
// 0,1 and 1 for tasks 2,3); inside an allocation the step asks for them
// too, so a job without GPUs refuses it ("Step requested GRES but job
// doesn't have GRES"). A GPU option given keeps its own count.
func TestS16TasksPerGPUDerivesGPUs(t *testing.T) {
	tests := map[string]struct {
		args []string
		env  []string
		want []resource.GRES
	}{
		"-n4, two per GPU":         {args: []string{"-n4", "--ntasks-per-gpu=2", "true"}, want: gpus(2)},
		"-n3, two per GPU":         {args: []string{"-n3", "--ntasks-per-gpu=2", "true"}, want: gpus(2)},
		"-n2, one per GPU":         {args: []string{"-n2", "--ntasks-per-gpu=1", "true"}, want: gpus(2)},
		"inside an allocation":     {args: []string{"-n2", "--ntasks-per-gpu=1", "true"}, env: []string{"SLURM_JOB_ID=7"}, want: gpus(2)},
		"--gpus given":             {args: []string{"-n4", "--ntasks-per-gpu=2", "--gpus=1", "true"}, want: gpus(1)},
		"without --ntasks-per-gpu": {args: []string{"-n4", "true"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Prog: "srun", Cwd: "/work", Now: testNow, Env: tc.env}
			res, err := p.Srun(tc.args)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if diff := cmp.Diff(tc.want, res.Request.GPUs); diff != "" {
				t.Errorf("GPUs (-want +got):\n%s", diff)
			}
		})
	}
}

func gpus(n int64) []resource.GRES { return []resource.GRES{{Name: "gpu", Count: n}} }

// TestS16SbatchTasksPerGPU: the peer's sbatch -n4 --ntasks-per-gpu=2
// runs with two GPUs (CUDA_VISIBLE_DEVICES=0,1) and shows NtasksPerTRES=2
// without TresPerJob; with --gpus the count is the one given.
func TestS16SbatchTasksPerGPU(t *testing.T) {
	type got struct {
		GPUs      []resource.GRES
		PerGPU    int
		FromTasks bool
	}
	tests := map[string]struct {
		args []string
		want got
	}{
		"-n4, two per GPU": {args: []string{"-n4", "--ntasks-per-gpu=2"}, want: got{gpus(2), 2, true}},
		"-n5, two per GPU": {args: []string{"-n5", "--ntasks-per-gpu=2"}, want: got{gpus(3), 2, true}},
		"--gpus given":     {args: []string{"-n4", "--ntasks-per-gpu=2", "--gpus=1"}, want: got{gpus(1), 2, false}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Cwd: "/work", Now: testNow}
			cl, err := p.CommandLine(append(tc.args, "--wrap=true"))
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Submission(cl, nil)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			r := res.Request
			if diff := cmp.Diff(tc.want, got{r.GPUs, r.NTasksPerGPU, r.GPUsFromTasks}); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
		})
	}
}
