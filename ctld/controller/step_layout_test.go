package controller

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestPlanStep lays steps out as the peer's srun did inside a job of two
// 2-CPU nodes (testdata of the brief: "srun -n3" is 2,1; "-n2" puts one
// task on each node; "-N1" with 4 tasks is too many CPUs).
func TestPlanStep(t *testing.T) {
	two := []api.NodeAllocation{{Node: "n01", CPUs: 2, GPUs: []int{0, 1}}, {Node: "n02", CPUs: 2, GPUs: []int{2, 3}}}
	eight := make([]api.NodeAllocation, 8)
	for i := range eight {
		eight[i] = api.NodeAllocation{Node: "n0" + string(rune('1'+i)), CPUs: 8}
	}
	node := func(name string, cpus int, gpus []int, tasks ...int) api.StepNode {
		return api.StepNode{Node: name, CPUs: cpus, GPUs: gpus, TaskIDs: tasks}
	}
	tests := map[string]struct {
		alloc    []api.NodeAllocation
		req      api.StepCreateRequest
		want     api.StepLayout
		wantCode api.Code
	}{
		"nothing asked: one task per node, every GPU": {alloc: two, req: api.StepCreateRequest{},
			want: api.StepLayout{NodeList: "n[01-02]", Tasks: 2, Nodes: []api.StepNode{node("n01", 2, []int{0, 1}, 0), node("n02", 2, []int{2, 3}, 1)}}},
		"three tasks on two nodes: 2,1": {alloc: two, req: api.StepCreateRequest{NTasks: 3},
			want: api.StepLayout{NodeList: "n[01-02]", Tasks: 3, Nodes: []api.StepNode{node("n01", 2, []int{0, 1}, 0, 1), node("n02", 2, []int{2, 3}, 2)}}},
		"one task uses one node": {alloc: two, req: api.StepCreateRequest{NTasks: 1},
			want: api.StepLayout{NodeList: "n01", Tasks: 1, Nodes: []api.StepNode{node("n01", 2, []int{0, 1}, 0)}}},
		"-w picks the node": {alloc: two, req: api.StepCreateRequest{NTasks: 1, NodeList: "n02"},
			want: api.StepLayout{NodeList: "n02", Tasks: 1, Nodes: []api.StepNode{node("n02", 2, []int{2, 3}, 0)}}},
		"-x leaves a node out": {alloc: two, req: api.StepCreateRequest{Exclude: "n01"},
			want: api.StepLayout{NodeList: "n02", Tasks: 1, Nodes: []api.StepNode{node("n02", 2, []int{2, 3}, 0)}}},
		"--gpus-per-task takes the first GPUs": {alloc: two, req: api.StepCreateRequest{NTasks: 3, GPUsPerTask: 1},
			want: api.StepLayout{NodeList: "n[01-02]", Tasks: 3, Nodes: []api.StepNode{node("n01", 2, []int{0, 1}, 0, 1), node("n02", 2, []int{2}, 2)}}},
		// The peer: srun -n2 --gpus-per-node=1 --gpus-per-task=1 gets one
		// GPU a node; srun -n1 --gpus=2 --gpus-per-task=1 gets one.
		"--gpus-per-node wins over --gpus-per-task": {alloc: two, req: api.StepCreateRequest{NTasks: 2, Nodes: 1, GPUsPerNode: 1, GPUsPerTask: 1},
			want: api.StepLayout{NodeList: "n01", Tasks: 2, Nodes: []api.StepNode{node("n01", 2, []int{0}, 0, 1)}}},
		"--gpus-per-task wins over --gpus": {alloc: two, req: api.StepCreateRequest{NTasks: 1, GPUs: 2, GPUsPerTask: 1},
			want: api.StepLayout{NodeList: "n01", Tasks: 1, Nodes: []api.StepNode{node("n01", 2, []int{0}, 0)}}},
		"--ntasks-per-node": {alloc: two, req: api.StepCreateRequest{NTasksPerNode: 2},
			want: api.StepLayout{NodeList: "n[01-02]", Tasks: 4, Nodes: []api.StepNode{node("n01", 2, []int{0, 1}, 0, 1), node("n02", 2, []int{2, 3}, 2, 3)}}},
		// srun's task count from -c without -n: the CPUs over -c (the
		// peer's srun -c3 in a job of 8 CPUs runs 2 tasks, -c4 --exclusive
		// on a 32-CPU node 8).
		"-c without -n: the tasks the CPUs hold": {alloc: eight[:2], req: api.StepCreateRequest{CPUsPerTask: 3},
			want: api.StepLayout{NodeList: "n[01-02]", Tasks: 4, Nodes: []api.StepNode{node("n01", 8, nil, 0, 1), node("n02", 8, nil, 2, 3)}}},
		"-c above a node's CPUs: a task a node": {alloc: two, req: api.StepCreateRequest{CPUsPerTask: 2},
			want: api.StepLayout{NodeList: "n[01-02]", Tasks: 2, Nodes: []api.StepNode{node("n01", 2, []int{0, 1}, 0), node("n02", 2, []int{2, 3}, 1)}}},
		"64 tasks on 8 nodes of 8 CPUs": {alloc: eight, req: api.StepCreateRequest{Nodes: 8, NTasks: 64},
			want: func() api.StepLayout {
				l := api.StepLayout{NodeList: "n[01-08]", Tasks: 64}
				for i, a := range eight {
					n := api.StepNode{Node: a.Node, CPUs: 8}
					for k := 0; k < 8; k++ {
						n.TaskIDs = append(n.TaskIDs, i*8+k)
					}
					l.Nodes = append(l.Nodes, n)
				}
				return l
			}()},
		"-m cyclic deals the task ids": {alloc: two, req: api.StepCreateRequest{NTasks: 3, Distribution: "cyclic"},
			want: api.StepLayout{NodeList: "n[01-02]", Tasks: 3, Nodes: []api.StepNode{node("n01", 2, []int{0, 1}, 0, 2), node("n02", 2, []int{2, 3}, 1)}}},
		"more tasks than CPUs":      {alloc: two, req: api.StepCreateRequest{Nodes: 1, NTasks: 4}, wantCode: api.CodeTooManyCPUs},
		"-c2 with one task per CPU": {alloc: two, req: api.StepCreateRequest{NTasks: 4, CPUsPerTask: 2}, wantCode: api.CodeTooManyCPUs},
		"overcommit allows it":      {alloc: two, req: api.StepCreateRequest{Nodes: 1, NTasks: 3, Overcommit: true}, want: api.StepLayout{NodeList: "n01", Tasks: 3, Nodes: []api.StepNode{node("n01", 2, []int{0, 1}, 0, 1, 2)}}},
		"more nodes than allocated": {alloc: two, req: api.StepCreateRequest{Nodes: 3}, wantCode: api.CodeNodeConfigUnavailable},
		// The peer, in a -n1 --mem=1G job: srun --mem=2G, --mem-per-cpu=999999
		// "Memory required by task is not available"; srun --gpus=1 in a job
		// without GPUs "Invalid generic resource (gres) specification".
		"--mem beyond the job's": {alloc: withMem(two, 1024), req: api.StepCreateRequest{NTasks: 1, MemPerNode: 2048},
			wantCode: api.CodeInvalidTaskMemory},
		"--mem-per-cpu beyond the job's": {alloc: withMem(two, 1024), req: api.StepCreateRequest{NTasks: 2, Nodes: 1, MemPerCPU: 600},
			wantCode: api.CodeInvalidTaskMemory},
		"GPUs in a job without any":            {alloc: eight[:1], req: api.StepCreateRequest{GPUs: 1}, wantCode: api.CodeInvalidGRES},
		"--cpus-per-gpu in a job without GPUs": {alloc: eight[:1], req: api.StepCreateRequest{CPUsPerGPU: 2}, wantCode: api.CodeInvalidGRES},
		"--cpus-per-gpu in a job with GPUs": {alloc: two, req: api.StepCreateRequest{CPUsPerGPU: 1},
			want: api.StepLayout{NodeList: "n[01-02]", Tasks: 2, Nodes: []api.StepNode{node("n01", 2, []int{0, 1}, 0), node("n02", 2, []int{2, 3}, 1)}}},
		"-w outside the allocation": {alloc: two, req: api.StepCreateRequest{NodeList: "n07"}, wantCode: api.CodeNodeConfigUnavailable},
		// The peer, in an -n4 --gres=gpu:2 job: -n2 -N1 --gpus-per-task=2
		// "More processors requested than permitted", -n1
		// --gpus-per-task=4 "Invalid generic resource (gres) specification".
		"more tasks' GPUs than the node":   {alloc: two, req: api.StepCreateRequest{NTasks: 2, Nodes: 1, GPUsPerTask: 2}, wantCode: api.CodeTooManyCPUs},
		"more GPUs per task than the node": {alloc: two, req: api.StepCreateRequest{NTasks: 1, Nodes: 1, GPUsPerTask: 4}, wantCode: api.CodeInvalidGRES},
		"a bad host list":                  {alloc: two, req: api.StepCreateRequest{NodeList: "n[01"}, wantCode: api.CodeInvalidNodeName},
		"-G1 on two nodes":                 {alloc: two, req: api.StepCreateRequest{GPUs: 1}, wantCode: api.CodeInvalidGRES},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, _, aerr := planStep(tc.alloc, &tc.req, nil)
			if tc.wantCode != "" {
				if aerr == nil || aerr.Code != tc.wantCode {
					t.Fatalf("planStep error %v, want code %s (layout %+v)", aerr, tc.wantCode, got)
				}
				return
			}
			if aerr != nil {
				t.Fatal(aerr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("layout (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRebalanceKeepsCapacity: a node with fewer CPUs gives its extra tasks
// to the next node with room.
func TestRebalanceKeepsCapacity(t *testing.T) {
	counts, capacity := []int{3, 3}, []int{1, 5}
	rebalance(counts, capacity)
	if diff := cmp.Diff([]int{1, 5}, counts); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}

// withMem is alloc with mb of memory on each node.
func withMem(alloc []api.NodeAllocation, mb int64) []api.NodeAllocation {
	out := slices.Clone(alloc)
	for i := range out {
		out[i].Memory = mb
	}
	return out
}

// TestStepGRESDetail: srun says why a step of a job without GPUs is
// refused when it asked for GPUs, or gave --cpus-per-gpu itself in a job
// it did not allocate; the peer prints no reason for an inherited
// SLURM_CPUS_PER_GPU or for srun's own allocation.
func TestStepGRESDetail(t *testing.T) {
	const why = "Step requested GRES but job doesn't have GRES"
	noGPUs := []api.NodeAllocation{{Node: "n01", CPUs: 8}}
	tests := map[string]struct {
		req  api.StepCreateRequest
		want string
	}{
		"GPUs":                           {api.StepCreateRequest{GPUs: 1}, why},
		"--ntasks-per-gpu":               {api.StepCreateRequest{NTasks: 2, TasksPerGPU: 1}, why},
		"--cpus-per-gpu given":           {api.StepCreateRequest{CPUsPerGPU: 1, CPUsPerGPUGiven: true}, why},
		"--cpus-per-gpu inherited":       {api.StepCreateRequest{CPUsPerGPU: 2}, ""},
		"--cpus-per-gpu, own allocation": {api.StepCreateRequest{CPUsPerGPU: 2, CPUsPerGPUGiven: true, OwnAllocation: true}, ""},
	}
	for name, tc := range tests {
		e := stepGRES(noGPUs, &tc.req)
		if e == nil || e.Code != api.CodeInvalidGRES || e.Detail != tc.want {
			t.Errorf("%s: %+v, want %s with detail %q", name, e, api.CodeInvalidGRES, tc.want)
		}
	}
}

// TestStepTasksOnUnevenNodes: in a job of 7 and 1 CPUs (-n8 on two
// nodes) the peer's steps fit by the CPUs in all, each node taking a task
// even when it holds less than one: -n3 -c2 runs 2,1, -n4 -c2 3,1, -n2
// -c4 1,1; -n2 -c7 asks for more than the job's 8.
func TestStepTasksOnUnevenNodes(t *testing.T) {
	uneven := []api.NodeAllocation{{Node: "n01", CPUs: 7}, {Node: "n02", CPUs: 1}}
	tests := map[string]struct {
		nodes      []api.NodeAllocation
		tasks, cpt int
		want       []int
	}{
		"-n3 -c2":     {uneven, 3, 2, []int{2, 1}},
		"-n4 -c2":     {uneven, 4, 2, []int{3, 1}},
		"-n2 -c4":     {uneven, 2, 4, []int{1, 1}},
		"-n8":         {uneven, 8, 1, []int{7, 1}},
		"-n2 -c7":     {uneven, 2, 7, nil},
		"-N1 -n4 -c2": {uneven[:1], 4, 2, nil},
	}
	for name, tc := range tests {
		got, aerr := stepTasks(tc.nodes, &api.StepCreateRequest{NTasks: tc.tasks, CPUsPerTask: tc.cpt})
		switch {
		case tc.want == nil && (aerr == nil || aerr.Code != api.CodeTooManyCPUs):
			t.Errorf("%s: %v %v, want %s", name, got, aerr, api.CodeTooManyCPUs)
		case tc.want != nil && (aerr != nil || !slices.Equal(got, tc.want)):
			t.Errorf("%s: %v %v, want %v", name, got, aerr, tc.want)
		}
	}
}

// TestStepTasksPerGPU: a step with --ntasks-per-gpu runs at least that
// many tasks for each of its GPUs, as slurmctld raises its count: the
// peer's -n1 --ntasks-per-gpu=1 in a job of 4 GPUs and 4 CPUs runs 4
// tasks, -n2 --ntasks-per-gpu=2 asks for 8 tasks' CPUs and is refused,
// -n2 -G2 --ntasks-per-gpu=1 keeps 2.
func TestStepTasksPerGPU(t *testing.T) {
	node := []api.NodeAllocation{{Node: "n01", CPUs: 4, GPUs: []int{3, 4, 5, 6}}}
	tests := map[string]struct {
		req  api.StepCreateRequest
		want []int
	}{
		"-n1, one a GPU":          {api.StepCreateRequest{NTasks: 1, TasksPerGPU: 1}, []int{4}},
		"-n2, two a GPU":          {api.StepCreateRequest{NTasks: 2, TasksPerGPU: 2}, nil},
		"-n2 -G2, one a GPU":      {api.StepCreateRequest{NTasks: 2, GPUs: 2, TasksPerGPU: 1}, []int{2}},
		"-n4 -G2 beside 4 a node": {api.StepCreateRequest{NTasks: 4, GPUs: 2, GPUsPerNode: 4, TasksPerGPU: 1}, []int{4}},
	}
	for name, tc := range tests {
		got, aerr := stepTasks(node, &tc.req)
		switch {
		case tc.want == nil && (aerr == nil || aerr.Code != api.CodeTooManyCPUs):
			t.Errorf("%s: %v %v, want %s", name, got, aerr, api.CodeTooManyCPUs)
		case tc.want != nil && (aerr != nil || !slices.Equal(got, tc.want)):
			t.Errorf("%s: %v %v, want %v", name, got, aerr, tc.want)
		}
	}
}

// TestStepGPUsBeforeCPUs: the GPUs a node check comes before the CPU
// count, as in the peer's srun -c3 -G1 (tasks from SLURM_NTASKS=4) in a
// two-node job of 3 and 1 CPUs.
func TestStepGPUsBeforeCPUs(t *testing.T) {
	alloc := []api.NodeAllocation{{Node: "n01", CPUs: 3, GPUs: []int{0, 1, 2}}, {Node: "n02", CPUs: 1, GPUs: []int{0}}}
	_, _, aerr := planStep(alloc, &api.StepCreateRequest{NTasks: 4, CPUsPerTask: 3, GPUs: 1}, nil)
	if aerr == nil || aerr.Code != api.CodeInvalidGRES || aerr.Detail != "Step requested gres=gpu:1 is less than the requested min nodes=2" {
		t.Errorf("planStep error %+v, want the GRES refusal naming the nodes", aerr)
	}
}
