package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
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

// TestSrunRangeRunsATaskANode: srun -N1-2 in an allocation of its own
// runs on every node it was given, without -n a task on each, as the
// peer's srun does on two idle nodes (SLURM_NTASKS=2, SLURM_NNODES=2;
// -n3 -N1-2 -c3 as 2,1), and leaves the distribution unknown.
func TestSrunRangeRunsATaskANode(t *testing.T) {
	two := api.StepLayout{NodeList: "n[01-02]", Tasks: 2, Nodes: []api.StepNode{
		{Node: "n01", TaskIDs: []int{0}}, {Node: "n02", TaskIDs: []int{1}}}}
	ready := api.Allocation{JobID: 7, State: job.Running, Ready: true, Name: "true", Partition: "normal",
		ClusterName: "c", NodeList: "n[01-02]", TasksPerNode: []int{1, 1},
		Nodes: []api.NodeAllocation{{Node: "n01", CPUs: 1}, {Node: "n02", CPUs: 1}}}
	for _, tc := range []struct {
		args         []string
		nodes, tasks int
	}{
		{[]string{"-N1-2", "true"}, 2, 2},
		{[]string{"-n3", "-N1-2", "true"}, 2, 3},
	} {
		f, _ := runSrunCase(t, srunCase{
			args: tc.args, layout: two,
			waits: []api.Allocation{ready},
			script: []func(n *fakeNode){
				func(n *fakeNode) { n.exit(api.StepIOExit{Tasks: []int{0}}); n.done() },
				func(n *fakeNode) { n.exit(api.StepIOExit{Tasks: []int{1}}); n.done() },
			},
		})
		if len(f.created) != 1 {
			t.Fatalf("%v: steps created: %d", tc.args, len(f.created))
		}
		s := f.created[0]
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
	one := api.StepLayout{NodeList: "n01", Tasks: 1, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0}}}}
	ready := api.Allocation{JobID: 7, State: job.Running, Ready: true, Name: "true", Partition: "normal",
		ClusterName: "c", NodeList: "n01", Nodes: []api.NodeAllocation{{Node: "n01", CPUs: 32}}, TasksPerNode: []int{1}}
	for _, tc := range []struct {
		args  []string
		exact bool
	}{
		{[]string{"--exclusive", "-N1", "true"}, false},
		{[]string{"--exclusive", "-c3", "true"}, true},
		{[]string{"--exclusive", "-n1", "true"}, true},
	} {
		f, _ := runSrunCase(t, srunCase{
			args: tc.args, layout: one, waits: []api.Allocation{ready},
			script: []func(n *fakeNode){func(n *fakeNode) { n.exit(api.StepIOExit{Tasks: []int{0}}); n.done() }},
		})
		if len(f.created) != 1 || f.created[0].Exact != tc.exact {
			t.Errorf("%v: steps %+v, want one with Exact %v", tc.args, f.created, tc.exact)
		}
	}
}
