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
		"-n2 --gpu-bind=verbose,none":                   {bind: "verbose,none", tasks: []int{0, 1}, want: none},
		"-n2 without --gpu-bind":                        {tasks: []int{0, 1}, want: all},
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
