package jobenv

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// daemonVar matches the variables the .peer captures keep: those the node
// daemon sets, plus the exported FOO and BAZ.
var daemonVar = regexp.MustCompile(`^(SLURM[A-Z_]*|CUDA_VISIBLE_DEVICES|GPU_DEVICE_ORDINAL|ROCR_VISIBLE_DEVICES|ZE_AFFINITY_MASK|ENVIRONMENT|HOSTNAME|TMPDIR|FOO|BAZ)=`)

// pendingAPI are peer variables the launch request cannot carry yet; the
// comparison leaves them out, saying so.
var pendingAPI = map[string]string{}

type envCase struct {
	Node    string            `json:"node"`
	Conf    string            `json:"conf"`
	UserEnv []string          `json:"user_env"`
	Launch  api.LaunchRequest `json:"launch"`
}

// TestPeerEnvironments builds each captured job's environment from the
// launch request Loam's controller sends for it and compares it with what
// the peer's slurmd gave the same job.
func TestPeerEnvironments(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) < 6 {
		t.Fatalf("cases: %v %v", files, err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			var tc envCase
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &tc); err != nil {
				t.Fatal(err)
			}
			peer, err := os.ReadFile(strings.TrimSuffix(file, ".json") + ".peer")
			if err != nil {
				t.Fatal(err)
			}
			var userEnv []string
			if WantsUserEnv(tc.Launch.Environment) {
				userEnv = tc.UserEnv
			}
			got := Build(Input{Launch: &tc.Launch, Node: tc.Node, ConfPath: tc.Conf, UserEnv: userEnv})
			// The exec'ing process adds its own pid.
			got = append(got, "SLURM_TASK_PID=<pid>")
			want := strings.Split(strings.TrimSpace(string(peer)), "\n")
			if diff := cmp.Diff(filter(t, want), filter(t, got)); diff != "" {
				t.Errorf("environment (-peer +loam):\n%s", diff)
			}
		})
	}
}

func filter(t *testing.T, env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if why, ok := pendingAPI[name]; ok {
			t.Logf("not compared: %s: %s", name, why)
			continue
		}
		if daemonVar.MatchString(kv) {
			out = append(out, kv)
		}
	}
	slices.Sort(out)
	return out
}

func TestDaemonVariablesWin(t *testing.T) {
	l := &api.LaunchRequest{JobID: 5, Name: "x", UserName: "u", ClusterName: "c", Partition: "p",
		Alloc:       api.NodeAllocation{Node: "n1", CPUs: 1},
		Environment: []string{"SLURM_JOB_ID=999", "HOSTNAME=login", "TMPDIR=/scratch", "KEEP=1"}}
	env := Build(Input{Launch: l, Node: "n1", UserEnv: []string{"KEEP=0", "HOME=/home/u"}})
	var e List
	e.Merge(env...)
	for k, want := range map[string]string{"SLURM_JOB_ID": "5", "HOSTNAME": "n1", "TMPDIR": "/scratch", "KEEP": "1", "HOME": "/home/u", "SLURM_JOB_NODELIST": "n1"} {
		if got, _ := e.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	for _, k := range []string{"SLURM_RESTART_COUNT", "SLURM_ARRAY_JOB_ID", "CUDA_VISIBLE_DEVICES", "SLURM_NTASKS", "SLURM_WORKING_CLUSTER"} {
		if v, ok := e.Get(k); ok {
			t.Errorf("%s = %q, want unset", k, v)
		}
	}
}

func TestRestartCountAndGPUsOnAnotherNode(t *testing.T) {
	l := &api.LaunchRequest{JobID: 7, Restarts: 2,
		Alloc: api.NodeAllocation{Node: "n2", CPUs: 2, GPUs: []int{5, 6}},
		Nodes: []api.NodeAllocation{{Node: "n1", CPUs: 2, GPUs: []int{2, 3}}, {Node: "n2", CPUs: 2, GPUs: []int{5, 6}}}}
	var e List
	e.Merge(Build(Input{Launch: l, Node: "n2"})...)
	for k, want := range map[string]string{"SLURM_RESTART_COUNT": "2", "CUDA_VISIBLE_DEVICES": "5,6", "SLURM_JOB_GPUS": "2,3", "SLURM_GPUS_ON_NODE": "2", "SLURM_JOB_CPUS_PER_NODE": "2(x2)", "SLURM_TASKS_PER_NODE": "1(x2)"} {
		if got, _ := e.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

func TestRepeated(t *testing.T) {
	tests := map[string]struct {
		in   []int
		want string
	}{
		"one node":         {in: []int{4}, want: "4"},
		"two equal":        {in: []int{2, 2}, want: "2(x2)"},
		"different":        {in: []int{3, 1}, want: "3,1"},
		"runs":             {in: []int{8, 8, 8, 1, 4, 4}, want: "8(x3),1,4(x2)"},
		"repeat after gap": {in: []int{2, 1, 2}, want: "2,1,2"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Repeated(tc.in); got != tc.want {
				t.Errorf("Repeated(%v) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
