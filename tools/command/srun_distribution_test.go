package command

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// TestUnknownDistribution: when srun leaves a step's distribution unknown
// without -m, so that its tasks get no SLURM_DISTRIBUTION (the peer's
// srun outside a job sets none unless --mem or --mem-per-cpu is given;
// inside one it sets cyclic or block unless --mem=0).
func TestUnknownDistribution(t *testing.T) {
	mb := func(n int64) *int64 { return &n }
	tests := map[string]struct {
		q                job.Request
		own, interactive bool
		want             bool
	}{
		"own allocation":                {job.Request{}, true, false, true},
		"own allocation, --mem=1G":      {job.Request{MemPerNode: mb(1024)}, true, false, false},
		"own allocation, --mem-per-cpu": {job.Request{MemPerCPU: mb(500)}, true, false, false},
		"own allocation, --mem-per-gpu": {job.Request{MemPerGPU: mb(1024)}, true, false, true},
		"in an allocation":              {job.Request{}, false, false, false},
		"in an allocation, --mem=0":     {job.Request{MemPerNode: mb(0)}, false, false, true},
		"in an allocation, interactive": {job.Request{}, false, true, true},
	}
	got, want := map[string]bool{}, map[string]bool{}
	for name, tc := range tests {
		got[name], want[name] = unknownDistribution(&tc.q, tc.own, tc.interactive), tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// ownAllocationStep runs srun with args outside a job, granted a job of
// the given nodes' CPUs at once, each node ending its one task, and
// returns the step srun asked for.
func ownAllocationStep(t *testing.T, args []string, cpus ...int) api.StepCreateRequest {
	t.Helper()
	ready := api.Allocation{JobID: 7, State: job.Running, Ready: true, Name: "true", Partition: "normal", ClusterName: "c"}
	var layout api.StepLayout
	var script []func(n *fakeNode)
	for i, c := range cpus {
		name := fmt.Sprintf("n%02d", i+1)
		ready.Nodes = append(ready.Nodes, api.NodeAllocation{Node: name, CPUs: c})
		ready.TasksPerNode = append(ready.TasksPerNode, 1)
		layout.Nodes = append(layout.Nodes, api.StepNode{Node: name, TaskIDs: []int{i}})
		script = append(script, func(n *fakeNode) { n.exit(api.StepIOExit{Tasks: []int{i}}); n.done() })
	}
	names := make([]string, len(ready.Nodes))
	for i, a := range ready.Nodes {
		names[i] = a.Node
	}
	ready.NodeList, layout.NodeList, layout.Tasks = hostlist.Compress(names), hostlist.Compress(names), len(cpus)
	f, _ := runSrunCase(t, srunCase{args: args, layout: layout, waits: []api.Allocation{ready}, script: script})
	if len(f.created) != 1 {
		t.Fatalf("%v: steps created: %d", args, len(f.created))
	}
	return f.created[0]
}

// TestSrunRangeRunsATaskANode: srun -N1-2 in an allocation of its own
// runs on every node it was given, without -n a task on each, as the
// peer's srun does on two idle nodes (SLURM_NTASKS=2, SLURM_NNODES=2;
// -n3 -N1-2 -c3 as 2,1), and leaves the distribution unknown.
func TestSrunRangeRunsATaskANode(t *testing.T) {
	for _, tc := range []struct {
		args         []string
		nodes, tasks int
	}{
		{[]string{"-N1-2", "true"}, 2, 2},
		{[]string{"-n3", "-N1-2", "true"}, 2, 3},
	} {
		s := ownAllocationStep(t, tc.args, 1, 1)
		if s.Nodes != tc.nodes || s.NTasks != tc.tasks || !s.NoDistribution {
			t.Errorf("%v: step asks %d nodes, %d tasks, no distribution %v; want %d, %d, true",
				tc.args, s.Nodes, s.NTasks, s.NoDistribution, tc.nodes, tc.tasks)
		}
	}
}

// TestSrunOwnExclusiveIsWhole: --exclusive makes srun's own allocation
// whole nodes and its step keeps them (the peer's srun --exclusive -N1
// task sees SLURM_CPUS_ON_NODE=32); -c or -n still make the step exact
// (--exclusive -n4 sees 4).
func TestSrunOwnExclusiveIsWhole(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		exact bool
	}{
		{[]string{"--exclusive", "-N1", "true"}, false},
		{[]string{"--exclusive", "-c3", "true"}, true},
		{[]string{"--exclusive", "-n1", "true"}, true},
	} {
		if s := ownAllocationStep(t, tc.args, 32); s.Exact != tc.exact {
			t.Errorf("%v: step Exact %v, want %v", tc.args, s.Exact, tc.exact)
		}
	}
}

// TestSrunAllocationTasksFromGPUs: srun -G2 --gpus-per-task=1 outside a
// job asks for a job of 2 tasks (the peer's holds 2 CPUs) and runs a step
// of one.
func TestSrunAllocationTasksFromGPUs(t *testing.T) {
	gpus := func(n int64) []resource.GRES { return []resource.GRES{{Name: "gpu", Count: n}} }
	got := allocationRequest(job.Request{GPUs: gpus(2), GPUsPerTask: gpus(1)})
	if got.NTasks != 2 {
		t.Errorf("allocation tasks %d, want 2", got.NTasks)
	}
	if got := allocationRequest(job.Request{NTasks: 1, GPUs: gpus(2), GPUsPerTask: gpus(1)}); got.NTasks != 1 {
		t.Errorf("-n1: allocation tasks %d, want 1", got.NTasks)
	}
}

// TestSrunRangeInAJob: a -N range in a two-node job takes both nodes
// for as many tasks as it has, counts --ntasks-per-node on its least
// nodes, and weighs the default distribution against them, as the
// peer's srun does: -N1-2 runs 2 tasks block, --ntasks-per-node=3 -N1-2
// 3 as 2,1, -N1-2 -n1 one task on one node.
func TestSrunRangeInAJob(t *testing.T) {
	inJob := []string{"SLURM_JOB_ID=7", "SLURM_JOBID=7", "SLURM_JOB_NUM_NODES=2", "SLURM_NNODES=2",
		"SLURM_JOB_NODELIST=n[01-02]", "SLURM_NODELIST=n[01-02]"}
	layout := api.StepLayout{NodeList: "n01", Tasks: 1, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0}}}}
	for _, tc := range []struct {
		args         []string
		nodes, tasks int
		dist         string
	}{
		{[]string{"-N1-2", "true"}, 2, 0, "block"},
		{[]string{"--ntasks-per-node=3", "-N1-2", "true"}, 2, 3, "block"},
		{[]string{"-N1-2", "-n1", "true"}, 1, 1, ""},
	} {
		f, _ := runSrunCase(t, srunCase{env: inJob, args: tc.args, layout: layout,
			script: []func(n *fakeNode){func(n *fakeNode) { n.exit(api.StepIOExit{Tasks: []int{0}}); n.done() }}})
		if len(f.created) != 1 {
			t.Fatalf("%v: steps created: %d", tc.args, len(f.created))
		}
		s := f.created[0]
		if s.Nodes != tc.nodes || s.NTasks != tc.tasks || s.Distribution != tc.dist {
			t.Errorf("%v: step asks %d nodes, %d tasks, distribution %q; want %d, %d, %q",
				tc.args, s.Nodes, s.NTasks, s.Distribution, tc.nodes, tc.tasks, tc.dist)
		}
	}
}
