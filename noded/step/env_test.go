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
		"cpus-per-task": {step: api.StepCreateRequest{NTasks: 2, CPUsPerTask: 2, CPUBind: "map_cpu:0,1", Exact: true}, nodeOf: []int{0, 1},
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
				gpus, err := NodeTaskGPUs(&req.Step, &tc.layout.Nodes[node], local)
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

// TestStepCPUsOnNode checks SLURM_CPUS_ON_NODE against the peer's steps in
// a job holding 4 CPUs on the node (and 6,2 for the -N2 case): an exact
// step gets what its tasks need, any other step all the job's CPUs.
func TestStepCPUsOnNode(t *testing.T) {
	tests := map[string]struct {
		step    api.StepCreateRequest
		tasks   []int
		jobCPUs int
		want    string
	}{
		"srun -n2 gets the job's CPUs":            {step: api.StepCreateRequest{NTasks: 2}, tasks: []int{0, 1}, jobCPUs: 4, want: "4"},
		"srun -n2 --exact":                        {step: api.StepCreateRequest{NTasks: 2, Exact: true}, tasks: []int{0, 1}, jobCPUs: 4, want: "2"},
		"srun -n2 -c1 (implies --exact)":          {step: api.StepCreateRequest{NTasks: 2, CPUsPerTask: 1, Exact: true}, tasks: []int{0, 1}, jobCPUs: 4, want: "2"},
		"SRUN_CPUS_PER_TASK=1 srun -n1":           {step: api.StepCreateRequest{NTasks: 1, CPUsPerTask: 1, Exact: true}, tasks: []int{0}, jobCPUs: 4, want: "1"},
		"srun -n2 -c2 on the 6-CPU node of 6,2":   {step: api.StepCreateRequest{NTasks: 2, CPUsPerTask: 2, Exact: true}, tasks: []int{0}, jobCPUs: 6, want: "2"},
		"srun -n1 --gpus-per-task=1 is not exact": {step: api.StepCreateRequest{NTasks: 1, GPUsPerTask: 1}, tasks: []int{0}, jobCPUs: 4, want: "4"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			req := &api.StepLaunchRequest{Step: tc.step, Layout: api.StepLayout{NodeList: "gpu001", Tasks: len(tc.tasks),
				Nodes: []api.StepNode{{Node: "gpu001", TaskIDs: tc.tasks, CPUs: tc.jobCPUs}}}}
			got := peerView(Env(EnvInput{Req: req, JobCPUs: tc.jobCPUs}))["SLURM_CPUS_ON_NODE"]
			if got != tc.want {
				t.Errorf("SLURM_CPUS_ON_NODE = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestEnvJobVarsInsideSalloc checks what the peer's srun -n1 inside
// "salloc -n2" gave its task beyond salloc's own variables: the job's user,
// SLURM_PRIO_PROCESS and SLURM_WORKING_CLUSTER.
func TestEnvJobVarsInsideSalloc(t *testing.T) {
	salloc := []string{"SLURM_JOB_ID=13056", "SLURM_JOB_CPUS_PER_NODE=2", "SLURM_CLUSTER_NAME=peer"}
	job := &api.LaunchRequest{JobID: 13056, UserID: 0, GroupID: 0, UserName: "root", ClusterName: "peer",
		ControllerAddr: "127.0.0.1:16817"}
	req := &api.StepLaunchRequest{Step: api.StepCreateRequest{NTasks: 1, Environment: salloc},
		Layout: api.StepLayout{NodeList: "cpu001", Tasks: 1, Nodes: []api.StepNode{{Node: "cpu001", TaskIDs: []int{0}, CPUs: 2}}}}
	got := peerView(Env(EnvInput{Req: req, JobCPUs: 2, Job: job}))
	want := map[string]string{"SLURM_JOB_UID": "0", "SLURM_JOB_GID": "0", "SLURM_JOB_USER": "root",
		"SLURM_PRIO_PROCESS": "0", "SLURM_WORKING_CLUSTER": "peer:127.0.0.1:16817:9728:109"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
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

// TestStepDistribution checks SLURM_DISTRIBUTION as the peer's srun -m
// gave it to the tasks.
func TestStepDistribution(t *testing.T) {
	tests := map[string]struct {
		dist    string
		tasks   int
		own     bool // srun's own allocation
		unknown bool // srun left the distribution unknown
		want    map[string]string
	}{
		"-m plane=2":      {dist: "plane=2", tasks: 2, want: map[string]string{"SLURM_DISTRIBUTION": "plane", "SLURM_DIST_PLANESIZE": "2"}},
		"-m block:cyclic": {dist: "block:cyclic", tasks: 2, want: map[string]string{"SLURM_DISTRIBUTION": "block:cyclic", "SLURM_DIST_PLANESIZE": ""}},
		"-m Cyclic":       {dist: "Cyclic", tasks: 2, want: map[string]string{"SLURM_DISTRIBUTION": "cyclic", "SLURM_DIST_PLANESIZE": ""}},
		"no -m, -n1":      {tasks: 1, want: map[string]string{"SLURM_DISTRIBUTION": "cyclic", "SLURM_DIST_PLANESIZE": ""}},
		"no -m, -n2":      {tasks: 2, want: map[string]string{"SLURM_DISTRIBUTION": "block", "SLURM_DIST_PLANESIZE": ""}},
		// The peer's srun -n2 outside any job: no SLURM_DISTRIBUTION (srun
		// left it unknown) nor SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0;
		// with -m cyclic the first.
		"own allocation, no -m": {tasks: 2, own: true, unknown: true,
			want: map[string]string{"SLURM_DISTRIBUTION": "", "SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0": ""}},
		"own allocation, -m cyclic": {dist: "cyclic", tasks: 2, own: true,
			want: map[string]string{"SLURM_DISTRIBUTION": "cyclic", "SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0": ""}},
		"in an allocation": {tasks: 2, want: map[string]string{"SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0": "2"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			ids := make([]int, tc.tasks)
			for i := range ids {
				ids[i] = i
			}
			req := &api.StepLaunchRequest{Step: api.StepCreateRequest{Distribution: tc.dist, OwnAllocation: tc.own, NoDistribution: tc.unknown,
				Environment: []string{"SLURM_JOB_CPUS_PER_NODE=2"}},
				Layout: api.StepLayout{NodeList: "cpu001", Tasks: tc.tasks, Nodes: []api.StepNode{{Node: "cpu001", TaskIDs: ids, CPUs: 2}}}}
			all := Env(EnvInput{Req: req, JobCPUs: 2})
			if !slicesContains(all, "TMPDIR=/tmp") {
				t.Errorf("no TMPDIR=/tmp, which slurmstepd sets when srun's environment has none")
			}
			env := peerView(all)
			for k, v := range tc.want {
				if env[k] != v {
					t.Errorf("%s = %q, want %q", k, env[k], v)
				}
			}
		})
	}
}

// TestStepPreserveEnv: srun -E keeps the job's SLURM_NNODES, SLURM_NTASKS,
// SLURM_NPROCS and SLURM_TASKS_PER_NODE, as the peer's srun -E -n2 -N1 in
// a -N2 --ntasks-per-node=2 job showed (4, 2, 2(x2)); the step's own
// counts stay in SLURM_STEP_*.
func TestStepPreserveEnv(t *testing.T) {
	job := []string{"SLURM_NNODES=2", "SLURM_NTASKS=4", "SLURM_NPROCS=4", "SLURM_TASKS_PER_NODE=2(x2)"}
	for _, preserve := range []bool{false, true} {
		req := &api.StepLaunchRequest{Step: api.StepCreateRequest{NTasks: 2, PreserveEnv: preserve, Environment: job},
			Layout: api.StepLayout{NodeList: "cpu001", Tasks: 2, Nodes: []api.StepNode{{Node: "cpu001", TaskIDs: []int{0, 1}, CPUs: 2}}}}
		got := peerView(Env(EnvInput{Req: req, JobCPUs: 2}))
		want := map[string]string{"SLURM_NNODES": "1", "SLURM_NTASKS": "2", "SLURM_NPROCS": "2", "SLURM_TASKS_PER_NODE": "2",
			"SLURM_STEP_NUM_TASKS": "2", "SLURM_STEP_TASKS_PER_NODE": "2"}
		if preserve {
			want["SLURM_NNODES"], want["SLURM_NTASKS"], want["SLURM_NPROCS"], want["SLURM_TASKS_PER_NODE"] = "2", "4", "4", "2(x2)"
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("-E %v: %s=%q, want %q", preserve, k, got[k], v)
			}
		}
	}
}
