package step

import (
	"bufio"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// readPeer reads a capture of testdata/capture.sh as a map.
func readPeer(t *testing.T, name string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name+".peer"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "=")
		out[k] = v
	}
	return out
}

// peerJob is the peer's job of capture.sh: gpu001 and gpu002, 2 CPUs and
// GPUs 0,1 each.
func peerLayout(tasks ...[]int) api.StepLayout {
	names := []string{"gpu001", "gpu002"}
	l := api.StepLayout{NodeList: "gpu001"}
	for i, ids := range tasks {
		l.Nodes = append(l.Nodes, api.StepNode{Node: names[i], TaskIDs: ids, CPUs: 2, GPUs: []int{0, 1}})
		l.Tasks += len(ids)
	}
	if len(tasks) == 2 {
		l.NodeList = "gpu[001-002]"
	}
	return l
}

// TestEnvMatchesPeer builds each task's environment from the batch
// script's (as srun forwards it, with what srun adds) and compares the
// SLURM_* and GPU variables with the peer's tasks.
func TestEnvMatchesPeer(t *testing.T) {
	batch := readPeer(t, "batch")
	tests := map[string]struct {
		step    api.StepCreateRequest
		layout  api.StepLayout
		srunEnv []string // what srun adds for the options
		nodeOf  []int    // node index of each task
	}{
		"plain": {layout: peerLayout([]int{0, 1}, []int{2, 3}), srunEnv: []string{"SLURM_LABELIO=1"}, nodeOf: []int{0, 0, 1, 1}},
		"gpus-per-task": {step: api.StepCreateRequest{NTasks: 3, GPUsPerTask: 1}, nodeOf: []int{0, 0, 1},
			layout: func() api.StepLayout {
				l := peerLayout([]int{0, 1}, []int{2})
				l.Nodes[1].GPUs = []int{0}
				return l
			}()},
		"map-gpu": {step: api.StepCreateRequest{NTasks: 2, GPUBind: "map_gpu:1,0"}, layout: peerLayout([]int{0, 1}), nodeOf: []int{0, 0}},
		"cpus-per-task": {step: api.StepCreateRequest{NTasks: 2, CPUsPerTask: 2, CPUBind: "map_cpu:0,1"}, nodeOf: []int{0, 1},
			layout:  peerLayout([]int{0}, []int{1}),
			srunEnv: []string{"SLURM_CPU_BIND_VERBOSE=quiet", "SLURM_CPU_BIND_TYPE=map_cpu:", "SLURM_CPU_BIND_LIST=0,1", "SLURM_CPU_BIND=quiet,map_cpu:0,1"}},
	}
	stepIDs := map[string]uint32{"plain": 0, "gpus-per-task": 1, "map-gpu": 2, "cpus-per-task": 3}
	for name, tc := range tests {
		for task, node := range tc.nodeOf {
			t.Run(name+"/task"+itoa(task), func(t *testing.T) {
				want := readPeer(t, name+"-"+itoa(task))
				env := []string{"SLURM_UMASK=0022"}
				for k, v := range batch {
					env = append(env, k+"="+v)
				}
				tc.step.Environment = append(env, tc.srunEnv...)
				tc.step.IO.Addr = "127.0.0.1:38115"
				req := &api.StepLaunchRequest{StepID: stepIDs[name], Step: tc.step, Layout: tc.layout, NodeIndex: node}
				local := indexOf(tc.layout.Nodes[node].TaskIDs, task)
				gpus, err := TaskGPUs(&req.Step, tc.layout.Nodes[node].GPUs, local)
				if err != nil {
					t.Fatal(err)
				}
				got := peerView(Env(EnvInput{Req: req, JobCPUs: 2, Local: local, GPUs: gpus}))
				// The batch script's SLURM_TASK_PID passes through; the
				// shim sets the task's own as it execs.
				delete(want, "SLURM_TASK_PID")
				delete(got, "SLURM_TASK_PID")
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("environment (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// peerView filters and masks an environment as capture.sh does.
func peerView(env []string) map[string]string {
	out := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "SLURM_SRUN_COMM_PORT", k == "SLURM_STEP_LAUNCHER_PORT":
			v = "<port>"
		case !strings.HasPrefix(k, "SLURM") && !slicesContains([]string{"CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL", "ROCR_VISIBLE_DEVICES", "ZE_AFFINITY_MASK"}, k):
			continue
		}
		out[k] = v
	}
	return maps.Clone(out)
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func indexOf(list []int, x int) int {
	for i, v := range list {
		if v == x {
			return i
		}
	}
	return -1
}

func itoa(n int) string { return joinInts([]int{n}) }
