package step

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/noded/shim"
	"github.com/loamhpc/loam/pkg/api"
)

func TestTaskGPUs(t *testing.T) {
	tests := map[string]struct {
		step    api.StepCreateRequest
		gpus    []int
		local   int
		want    []int
		wantErr bool
	}{
		"no GPU option: every GPU":         {gpus: []int{2, 3}, local: 1, want: nil},
		"--gpus-per-task=1 as the peer":    {step: api.StepCreateRequest{GPUsPerTask: 1}, gpus: []int{2, 3}, local: 1, want: []int{3}},
		"--gpus-per-task=2":                {step: api.StepCreateRequest{GPUsPerTask: 2}, gpus: []int{0, 1, 2, 3}, local: 1, want: []int{2, 3}},
		"--gpu-bind=none keeps all":        {step: api.StepCreateRequest{GPUsPerTask: 1, GPUBind: "none"}, gpus: []int{0, 1}, want: nil},
		"single:1":                         {step: api.StepCreateRequest{GPUBind: "single:1"}, gpus: []int{0, 1}, local: 1, want: []int{1}},
		"single:2 shares a GPU":            {step: api.StepCreateRequest{GPUBind: "single:2"}, gpus: []int{4, 5}, local: 3, want: []int{5}},
		"map_gpu as the peer":              {step: api.StepCreateRequest{GPUBind: "map_gpu:1,0"}, gpus: []int{0, 1}, local: 0, want: []int{1}},
		"verbose,map_gpu":                  {step: api.StepCreateRequest{GPUBind: "verbose,map_gpu:1,0"}, gpus: []int{0, 1}, local: 1, want: []int{0}},
		"mask_gpu":                         {step: api.StepCreateRequest{GPUBind: "mask_gpu:0x3,0xc"}, gpus: []int{0, 1, 2, 3}, local: 1, want: []int{2, 3}},
		"map_gpu outside the step":         {step: api.StepCreateRequest{GPUBind: "map_gpu:7"}, gpus: []int{0, 1}, wantErr: true},
		"per_task needs a positive count":  {step: api.StepCreateRequest{GPUBind: "per_task:0"}, gpus: []int{0}, wantErr: true},
		"an unknown binding":               {step: api.StepCreateRequest{GPUBind: "bogus"}, gpus: []int{0}, wantErr: true},
		"mask_gpu selecting nothing there": {step: api.StepCreateRequest{GPUBind: "mask_gpu:0x10"}, gpus: []int{0, 1}, wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := TaskGPUs(&tc.step, tc.gpus, tc.local)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %t", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("GPUs (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNodeTaskGPUsLoneTask checks the peer's lone task on a node: all the
// step's GPUs there, whatever --gpus-per-task or --gpu-bind say; two tasks
// are bound.
func TestNodeTaskGPUsLoneTask(t *testing.T) {
	tests := map[string]struct {
		step  api.StepCreateRequest
		tasks []int
		local int
		want  []int
	}{
		"-n1 --gpus-per-task=1":     {step: api.StepCreateRequest{GPUsPerTask: 1}, tasks: []int{0}, want: nil},
		"-n1 --gpu-bind=map_gpu:1":  {step: api.StepCreateRequest{GPUBind: "map_gpu:1"}, tasks: []int{0}, want: nil},
		"-n1 --gpu-bind=per_task:1": {step: api.StepCreateRequest{GPUBind: "per_task:1"}, tasks: []int{0}, want: nil},
		"-n2 --gpus-per-task=1":     {step: api.StepCreateRequest{GPUsPerTask: 1}, tasks: []int{0, 1}, local: 1, want: []int{1}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			n := &api.StepNode{Node: "gpu001", TaskIDs: tc.tasks, CPUs: 4, GPUs: []int{0, 1}}
			got, err := NodeTaskGPUs(&tc.step, n, tc.local)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("GPUs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTaskCPUs(t *testing.T) {
	job := []int{4, 5, 6, 7}
	tests := map[string]struct {
		spec    string
		cpt     int
		local   int
		want    []int
		wantErr bool
	}{
		"no binding":            {spec: "", local: 1, want: nil},
		"cores: a run per task": {spec: "cores", cpt: 2, local: 1, want: []int{6, 7}},
		"threads wraps around":  {spec: "quiet,threads", cpt: 1, local: 5, want: []int{5}},
		"map_cpu":               {spec: "map_cpu:0,1", local: 1, want: []int{1}},
		"mask_cpu":              {spec: "mask_cpu:0x3,0xc", local: 1, want: []int{2, 3}},
		"none":                  {spec: "none", want: nil},
		"a bad list":            {spec: "map_cpu:x", wantErr: true},
		"an unknown binding":    {spec: "bogus", wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := TaskCPUs(tc.spec, job, tc.cpt, tc.local)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %t", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("CPUs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	exe, plain := filepath.Join(dir, "tool"), filepath.Join(dir, "data")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=/nonexistent:" + dir}
	rel := []string{"PATH=/nonexistent:."}
	tests := map[string]struct {
		name      string
		dir       string
		env       []string
		wantPath  string
		wantErrno syscall.Errno
	}{
		// srun ./train.sh: relative to the task's directory, not the
		// node daemon's (the peer runs it; Loam reported ENOENT).
		"a relative path counts from the task's directory": {name: "./tool", dir: dir, wantPath: "./tool"},
		"a relative path absent there":                     {name: "./tool", dir: "/", wantPath: "./tool", wantErrno: syscall.ENOENT},
		"a relative PATH entry counts from there too":      {name: "tool", dir: dir, env: rel, wantPath: "./tool"},
		"found in PATH":         {name: "tool", env: env, wantPath: exe},
		"not in PATH":           {name: "nosuch", env: env, wantPath: "nosuch", wantErrno: syscall.ENOENT},
		"no PATH at all":        {name: "tool", wantPath: "tool", wantErrno: syscall.ENOENT},
		"not executable":        {name: "data", env: env, wantPath: "data", wantErrno: syscall.EACCES},
		"a path is used as is":  {name: exe, wantPath: exe},
		"a path that is absent": {name: "/no/such", wantPath: "/no/such", wantErrno: syscall.ENOENT},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, errno := lookPath(tc.name, tc.dir, tc.env)
			if got != tc.wantPath || errno != tc.wantErrno {
				t.Errorf("lookPath(%q) = %q, %v; want %q, %v", tc.name, got, errno, tc.wantPath, tc.wantErrno)
			}
		})
	}
}

func TestUmask(t *testing.T) {
	for env, want := range map[string]string{"SLURM_UMASK=0077": "0077", "SLURM_UMASK=022": "0022", "SLURM_UMASK=x": "0022", "": "0022"} {
		if got := shim.Umask([]string{env}); got != want {
			t.Errorf("shim.Umask(%q) = %s, want %s", env, got, want)
		}
	}
}
