package step

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
)

// TestStepMemory: the memory RLIMIT_RSS is capped at, as the peer's tasks
// saw it (ulimit -m) in a job of --mem=1024 -c2: srun --mem=512 524288 KB,
// plain srun the job's 1048576, --mem-per-cpu=100 -c2 204800; and in a
// job of -n4 (4 CPUs on the node, DefMemPerCPU=1024): srun -n1 4194304
// (it inherits SLURM_MEM_PER_CPU and, not exact, holds all 4 CPUs), srun
// -n1 --mem-per-cpu=100 409600, srun -n1 -c3 --mem-per-cpu=100 307200.
func TestStepMemory(t *testing.T) {
	one := api.StepLayout{Nodes: []api.StepNode{{Node: "n1", TaskIDs: []int{0}}}}
	tests := map[string]struct {
		step    api.StepCreateRequest
		job     int64
		jobCPUs int
		want    int64
	}{
		"--mem":                        {step: api.StepCreateRequest{MemPerNode: 512}, job: 1024, jobCPUs: 2, want: 512},
		"nothing: the job's":           {job: 1024, jobCPUs: 2, want: 1024},
		"--mem-per-cpu times its CPUs": {step: api.StepCreateRequest{MemPerCPU: 100, CPUsPerTask: 2, Exact: true}, job: 1024, jobCPUs: 2, want: 200},
		"never above the job's":        {step: api.StepCreateRequest{MemPerNode: 4096}, job: 1024, jobCPUs: 2, want: 1024},
		"a job without a limit":        {step: api.StepCreateRequest{MemPerNode: 512}, jobCPUs: 2, want: 512},
		"inherited SLURM_MEM_PER_CPU: all the job's CPUs": {step: api.StepCreateRequest{MemPerCPU: 1024}, job: 4096, jobCPUs: 4, want: 4096},
		"-n1 --mem-per-cpu=100 in 4 CPUs":                 {step: api.StepCreateRequest{MemPerCPU: 100}, job: 4096, jobCPUs: 4, want: 400},
		"-n1 -c3 --mem-per-cpu=100: exact":                {step: api.StepCreateRequest{MemPerCPU: 100, CPUsPerTask: 3, Exact: true}, job: 4096, jobCPUs: 4, want: 300},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := &api.StepLaunchRequest{Step: tc.step, Layout: one}
			if got := stepMemory(r, tc.job, tc.jobCPUs); got != tc.want {
				t.Errorf("stepMemory = %d, want %d", got, tc.want)
			}
		})
	}
}
