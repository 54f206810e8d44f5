package controller

import (
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// TestGPUJobCPUIDsLikeSlurm checks the CPU_IDs of jobs with GPUs against
// `scontrol show job -d` on the peer's 2x32-core 8-GPU nodes, each job
// alone on an idle node unless busy names the CPUs another job holds
// there.
func TestGPUJobCPUIDsLikeSlurm(t *testing.T) {
	gpus := func(n int64) []resource.GRES { return []resource.GRES{{Name: "gpu", Count: n}} }
	tests := map[string]struct {
		req                      job.Request
		cpus, freeGPUs, gpusLeft int
		busy                     []int
		want                     string
	}{
		"-n1 --gres=gpu:1":                            {job.Request{NTasks: 1, GRES: gpus(1)}, 1, 8, 0, nil, "32"},
		"-n1 -c8 --gres=gpu:8":                        {job.Request{NTasks: 1, CPUsPerTask: 8, GRES: gpus(8)}, 8, 8, 0, nil, "0-3,32-35"},
		"-n1 -c7 --gres=gpu:1":                        {job.Request{NTasks: 1, CPUsPerTask: 7, GRES: gpus(1)}, 7, 8, 0, nil, "0-2,32-35"},
		"-n8 -c4 --gres=gpu:1, open":                  {job.Request{NTasks: 8, CPUsPerTask: 4, GRES: gpus(1)}, 32, 8, 0, nil, "0-31"},
		"-n2 -c5 --gres=gpu:1, open":                  {job.Request{NTasks: 2, CPUsPerTask: 5, GRES: gpus(1)}, 10, 8, 0, nil, "0-9"},
		"-c4 --gres=gpu:1, no -n":                     {job.Request{CPUsPerTask: 4, GRES: gpus(1)}, 4, 8, 0, nil, "0-3"},
		"-n1 -c8 without GPUs":                        {job.Request{NTasks: 1, CPUsPerTask: 8}, 8, 8, 0, nil, "0-7"},
		"-N1 -n2 -c3 --gres=gpu:1":                    {job.Request{NodesSet: true, MinNodes: 1, MaxNodes: 1, NTasks: 2, CPUsPerTask: 3, GRES: gpus(1)}, 6, 8, 0, nil, "0-2,32-34"},
		"-N1 -n3 --gres=gpu:1":                        {job.Request{NodesSet: true, MinNodes: 1, MaxNodes: 1, NTasks: 3, GRES: gpus(1)}, 3, 8, 0, nil, "0,32-33"},
		"-N2 --ntasks-per-node=1 -c8":                 {job.Request{NodesSet: true, MinNodes: 2, MaxNodes: 2, NTasks: 2, NTasksPerNode: 1, CPUsPerTask: 8, GPUsPerNode: gpus(8)}, 8, 8, 0, nil, "0-3,32-35"},
		"-N2 -n2 -c4 --gres=gpu:1":                    {job.Request{NodesSet: true, MinNodes: 2, MaxNodes: 2, NTasks: 2, CPUsPerTask: 4, GRES: gpus(1)}, 4, 8, 0, nil, "0-1,32-33"},
		"-n1 -c4 --gpus=1":                            {job.Request{NTasks: 1, CPUsPerTask: 4, GPUs: gpus(1)}, 4, 8, 1, nil, "0-1,32-33"},
		"-n8 --gpus-per-task=1 -c4":                   {job.Request{NTasks: 8, CPUsPerTask: 4, GPUsPerTask: gpus(1)}, 32, 8, 8, nil, "0-15,32-47"},
		"-n2 --gpus-per-task=1 -c4":                   {job.Request{NTasks: 2, CPUsPerTask: 4, GPUsPerTask: gpus(1)}, 8, 8, 2, nil, "0-7"},
		"-N1 -n4 --ntasks-per-gpu=2 -c2":              {job.Request{NodesSet: true, MinNodes: 1, MaxNodes: 1, NTasks: 4, NTasksPerGPU: 2, CPUsPerTask: 2, GRES: gpus(2)}, 8, 8, 0, nil, "0-3,32-35"},
		"-N2 --gpus=12 --cpus-per-gpu=2, first node":  {job.Request{NodesSet: true, MinNodes: 2, MaxNodes: 2, CPUsPerGPU: 2, GPUs: gpus(12)}, 16, 8, 12, nil, "0-7,32-39"},
		"-N2 --gpus=12 --cpus-per-gpu=2, second node": {job.Request{NodesSet: true, MinNodes: 2, MaxNodes: 2, CPUsPerGPU: 2, GPUs: gpus(12)}, 8, 8, 4, nil, "0-3,32-35"},
		"-n1 -c4 --gres=gpu:1 beside -n1 -c5":         {job.Request{NTasks: 1, CPUsPerTask: 4, GRES: gpus(1)}, 4, 7, 0, []int{0, 1, 32, 33, 34}, "2-3,35-36"},
		"-n8 -c4 --gres=gpu:1 beside -n1 -c5":         {job.Request{NTasks: 8, CPUsPerTask: 4, GRES: gpus(1)}, 32, 7, 0, []int{0, 1, 32, 33, 34}, "2-29,35-38"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			used := make([]bool, 64)
			for _, id := range tc.busy {
				used[id] = true
			}
			if got := job.FormatRanges(nodeCPUIDs(&tc.req, used, 2, tc.cpus, tc.freeGPUs, tc.gpusLeft)); got != tc.want {
				t.Errorf("CPU_IDs = %q, want %q", got, tc.want)
			}
		})
	}
}
