package step

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
)

// TestStepMemory: the memory RLIMIT_RSS is capped at, as the peer's tasks
// saw it (ulimit -m) in a job of --mem=1024 -c2: srun --mem=512 524288 KB,
// plain srun the job's 1048576, --mem-per-cpu=100 -c2 204800.
func TestStepMemory(t *testing.T) {
	one := api.StepLayout{Nodes: []api.StepNode{{Node: "n1", TaskIDs: []int{0}}}}
	tests := map[string]struct {
		step api.StepCreateRequest
		job  int64
		want int64
	}{
		"--mem":                        {step: api.StepCreateRequest{MemPerNode: 512}, job: 1024, want: 512},
		"nothing: the job's":           {job: 1024, want: 1024},
		"--mem-per-cpu times its CPUs": {step: api.StepCreateRequest{MemPerCPU: 100, CPUsPerTask: 2}, job: 1024, want: 200},
		"never above the job's":        {step: api.StepCreateRequest{MemPerNode: 4096}, job: 1024, want: 1024},
		"a job without a limit":        {step: api.StepCreateRequest{MemPerNode: 512}, want: 512},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := &api.StepLaunchRequest{Step: tc.step, Layout: one}
			if got := stepMemory(r, tc.job); got != tc.want {
				t.Errorf("stepMemory = %d, want %d", got, tc.want)
			}
		})
	}
}
