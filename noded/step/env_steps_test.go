package step

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestGPUBindNone: the peer's --gpu-bind=none tasks (job --gpus=2 on
// gpu004, batch script with CUDA_VISIBLE_DEVICES=0,1) saw no GPU variable
// but SLURM_JOB_GPUS and SLURMD_TRES_BIND=gpu:none when the node ran two;
// a lone task, or any without it, saw both GPUs.
func TestGPUBindNone(t *testing.T) {
	batch := []string{"CUDA_VISIBLE_DEVICES=0,1", "GPU_DEVICE_ORDINAL=0,1", "SLURM_JOB_GPUS=0,1"}
	keys := []string{"CUDA_VISIBLE_DEVICES", "SLURM_STEP_GPUS", "GPU_DEVICE_ORDINAL", "SLURM_JOB_GPUS", "SLURMD_TRES_BIND", "SLURM_GPUS_ON_NODE"}
	none := map[string]string{"SLURM_JOB_GPUS": "0,1", "SLURMD_TRES_BIND": "gpu:none", "SLURM_GPUS_ON_NODE": "2"}
	all := map[string]string{"CUDA_VISIBLE_DEVICES": "0,1", "SLURM_STEP_GPUS": "0,1", "GPU_DEVICE_ORDINAL": "0,1", "SLURM_JOB_GPUS": "0,1", "SLURM_GPUS_ON_NODE": "2"}
	tests := map[string]struct {
		bind  string
		tasks []int
		want  map[string]string
	}{
		"-n2 --gpu-bind=none":                           {bind: "none", tasks: []int{0, 1}, want: none},
		"-n1 --gpu-bind=none: a lone task is not bound": {bind: "none", tasks: []int{0}, want: all},
		// The peer keeps verbose in the name (round 14, salloc -N1 -n8
		// --gres=gpu:8; srun -n2 --gpus-per-node=4 --gpu-bind=verbose,none).
		"-n2 --gpu-bind=verbose,none": {bind: "verbose,none", tasks: []int{0, 1}, want: withBind(none, "gpu:verbose,none")},
		"-n2 without --gpu-bind":      {tasks: []int{0, 1}, want: all},
		// srun -n2 --gpus-per-node=4 --gpu-bind=closest: every GPU, and
		// SLURMD_TRES_BIND=gpu:closest (gres.conf without Cores=).
		"-n2 --gpu-bind=closest":         {bind: "closest", tasks: []int{0, 1}, want: withBind(all, "gpu:closest")},
		"-n2 --gpu-bind=verbose,closest": {bind: "verbose,closest", tasks: []int{0, 1}, want: withBind(all, "gpu:verbose,closest")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			step := api.StepCreateRequest{NTasks: len(tc.tasks), GPUBind: tc.bind, Environment: batch}
			req := &api.StepLaunchRequest{Step: step, Layout: peerLayout(tc.tasks)}
			gpus, err := NodeTaskGPUs(&req.Step, &req.Layout.Nodes[0], 0)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, kv := range Env(EnvInput{Req: req, JobCPUs: 2, Local: 0, GPUs: gpus}) {
				k, v, _ := strings.Cut(kv, "=")
				for _, want := range keys {
					if k == want {
						got[k] = v
					}
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("GPU variables (-want +got):\n%s", diff)
			}
		})
	}
}

// withBind is m with SLURMD_TRES_BIND set to bind.
func withBind(m map[string]string, bind string) map[string]string {
	out := map[string]string{"SLURMD_TRES_BIND": bind}
	for k, v := range m {
		if k != "SLURMD_TRES_BIND" {
			out[k] = v
		}
	}
	return out
}

// TestStepTasksPerNode: the peer's srun -n4 --ntasks-per-node=2 in a job
// of --ntasks-per-node=8 shows SLURM_NTASKS_PER_NODE=2 in its tasks.
func TestStepTasksPerNode(t *testing.T) {
	tests := map[string]struct {
		perNode int
		env     []string
		want    string
	}{
		"--ntasks-per-node on srun wins over the job's": {perNode: 2, env: []string{"SLURM_NTASKS_PER_NODE=8"}, want: "2"},
		"without it the job's stays":                    {env: []string{"SLURM_NTASKS_PER_NODE=8"}, want: "8"},
		"neither":                                       {want: "(unset)"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			step := api.StepCreateRequest{NTasks: 2, NTasksPerNode: tc.perNode, Environment: tc.env}
			req := &api.StepLaunchRequest{Step: step, Layout: peerLayout([]int{0, 1})}
			got := "(unset)"
			for _, kv := range Env(EnvInput{Req: req, JobCPUs: 2}) {
				if v, ok := strings.CutPrefix(kv, "SLURM_NTASKS_PER_NODE="); ok {
					got = v
				}
			}
			if got != tc.want {
				t.Errorf("SLURM_NTASKS_PER_NODE = %s, want %s", got, tc.want)
			}
		})
	}
}

// TestGPUBindVerbose: the peer's lines for --gpu-bind=verbose,... in a
// step of GPUs 0-3 on one node with two tasks (round 14).
func TestGPUBindVerbose(t *testing.T) {
	gpus := []int{0, 1, 2, 3}
	tests := map[string]struct {
		bind string
		want []string
	}{
		"map_gpu": {bind: "verbose,map_gpu:3,1", want: []string{
			"gpu-bind: usable_gres=0x8; bit_alloc=0xF; local_inx=0; global_list=3; local_list=3\n",
			"gpu-bind: usable_gres=0x2; bit_alloc=0xF; local_inx=0; global_list=1; local_list=1\n"}},
		"mask_gpu": {bind: "verbose,mask_gpu:0x3,0xc", want: []string{
			"gpu-bind: usable_gres=0x3; bit_alloc=0xF; local_inx=0; global_list=0,1; local_list=0,1\n",
			"gpu-bind: usable_gres=0xC; bit_alloc=0xF; local_inx=0; global_list=2,3; local_list=2,3\n"}},
		"single": {bind: "verbose,single:1", want: []string{
			"gpu-bind: usable_gres=0x1; bit_alloc=0xF; local_inx=0; global_list=0; local_list=0\n",
			"gpu-bind: usable_gres=0x2; bit_alloc=0xF; local_inx=0; global_list=1; local_list=1\n"}},
		"closest": {bind: "verbose,closest", want: []string{
			"gpu-bind: usable_gres=0xF; bit_alloc=0xF; local_inx=0; global_list=0,1,2,3; local_list=0,1,2,3\n",
			"gpu-bind: usable_gres=0xF; bit_alloc=0xF; local_inx=0; global_list=0,1,2,3; local_list=0,1,2,3\n"}},
		"none prints nothing":      {bind: "verbose,none", want: []string{"", ""}},
		"without verbose, no line": {bind: "map_gpu:3,1", want: []string{"", ""}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s := &api.StepCreateRequest{NTasks: 2, GPUBind: tc.bind}
			n := &api.StepNode{Node: "gpu001", TaskIDs: []int{0, 1}, GPUs: gpus}
			var got []string
			for local := range 2 {
				task, err := NodeTaskGPUs(s, n, local)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, GPUBindVerbose(s, gpus, task))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
	lone := &api.StepNode{Node: "gpu001", TaskIDs: []int{0}, GPUs: gpus}
	task, _ := NodeTaskGPUs(&api.StepCreateRequest{GPUBind: "verbose,map_gpu:1"}, lone, 0)
	if line := GPUBindVerbose(&api.StepCreateRequest{GPUBind: "verbose,map_gpu:1"}, gpus, task); line != "" {
		t.Errorf("a node's lone task printed %q; the peer prints nothing", line)
	}
}
