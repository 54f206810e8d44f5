package controller

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestStepGPUShares: a step's --gpus over its nodes. The peer's srun in
// sbatch -N2 --gpus=3 (2 GPUs on gpu001, 1 on gpu002; srun reads
// SLURM_GPUS=3) runs with CUDA_VISIBLE_DEVICES=0,1 and 0.
func TestStepGPUShares(t *testing.T) {
	alloc := func(gpus ...int) []api.NodeAllocation {
		var out []api.NodeAllocation
		for i, g := range gpus {
			out = append(out, api.NodeAllocation{Node: "n0" + string(rune('1'+i)), CPUs: 1, GPUs: make([]int, g)})
		}
		return out
	}
	cases := map[string]struct {
		nodes []api.NodeAllocation
		gpus  int
		want  []int // nil: refused
	}{
		"--gpus=3 on 2+1 GPUs takes all":     {alloc(2, 1), 3, []int{2, 1}},
		"--gpus=3 on 8+8 GPUs: 2,1":          {alloc(8, 8), 3, []int{2, 1}},
		"--gpus=4 on 8+8 GPUs: 2,2":          {alloc(8, 8), 4, []int{2, 2}},
		"the rest moves to a node with room": {alloc(1, 4), 4, []int{1, 3}},
		"more than the nodes hold":           {alloc(2, 1), 4, nil},
		"no --gpus":                          {alloc(2, 1), 0, []int{0, 0}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, aerr := stepGPUShares(tc.nodes, tc.gpus)
			if tc.want == nil {
				if aerr == nil || aerr.Code != api.CodeInvalidGRES {
					t.Fatalf("stepGPUShares = %v, %v; want the GRES refusal", got, aerr)
				}
				return
			}
			if aerr != nil {
				t.Fatal(aerr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("shares (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStepGPUsOfAnUnevenJob: srun in a --gpus=3 job on two nodes runs,
// with the GPUs the job has on each (the peer: 0,1 and 0).
func TestStepGPUsOfAnUnevenJob(t *testing.T) {
	alloc := []api.NodeAllocation{{Node: "n01", CPUs: 1, GPUs: []int{0, 1}}, {Node: "n02", CPUs: 1, GPUs: []int{0}}}
	got, _, aerr := planStep(alloc, &api.StepCreateRequest{NTasks: 2, GPUs: 3}, nil)
	if aerr != nil {
		t.Fatalf("planStep: %v", aerr)
	}
	var gpus [][]int
	for _, n := range got.Nodes {
		gpus = append(gpus, n.GPUs)
	}
	if diff := cmp.Diff([][]int{{0, 1}, {0}}, gpus); diff != "" {
		t.Errorf("step GPUs (-want +got):\n%s", diff)
	}
}

// TestStepTasksFollowGPUs: srun -n8 --gpus-per-task=1 in the peer's
// sbatch -N2 -n8 --gpus-per-task=1 -c2 job (7,1 GPUs; srun does not read
// SLURM_CPUS_PER_TASK) runs 7,1 tasks with a GPU each.
func TestStepTasksFollowGPUs(t *testing.T) {
	alloc := []api.NodeAllocation{{Node: "n01", CPUs: 14, GPUs: []int{0, 1, 2, 3, 4, 5, 6}}, {Node: "n02", CPUs: 2, GPUs: []int{0}}}
	got, _, aerr := planStep(alloc, &api.StepCreateRequest{NTasks: 8, GPUsPerTask: 1}, nil)
	if aerr != nil {
		t.Fatalf("planStep: %v", aerr)
	}
	var tasks []int
	for _, n := range got.Nodes {
		tasks = append(tasks, len(n.TaskIDs))
	}
	if diff := cmp.Diff([]int{7, 1}, tasks); diff != "" {
		t.Errorf("tasks per node (-want +got):\n%s", diff)
	}
}
