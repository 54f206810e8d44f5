package controller

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// TestS16PendingShape: the node count, CPUs and MinCPUsNode slurmctld
// shows for held jobs of each shape (the peer's squeue --json node_count,
// cpus and minimum_cpus_per_node for the sbatch options in each case;
// -n65 on the peer's 64-CPU nodes is 2 nodes, as -n12 on the harness's
// two 8-CPU nodes here; shapes needing more than two nodes are left out:
// the peer shows -n6 --ntasks-per-node=2 -N1-2 as 3 nodes, NumNodes=2-2).
func TestS16PendingShape(t *testing.T) {
	type shape struct{ Nodes, MaxNodes, CPUs, Tasks, MinCPUsNode int }
	cases := map[string]struct {
		n, tpn, cpt, minN, maxN int
		over                    bool // -O
		fromGPUs                bool // nodes from --gpus over GPUs a node
		want                    shape
	}{
		// -O asks for a CPU a node; the peer shows -O -n4 -c2 on 2 nodes
		// by its select plugin's guess, which Loam does not model.
		"-O -n4 -c2 (a CPU a node)":     {n: 4, cpt: 2, over: true, want: shape{1, 0, 1, 4, 2}},
		"-O -N2 -n8":                    {n: 8, minN: 2, maxN: 2, over: true, want: shape{2, 2, 2, 8, 1}},
		"-n4 --ntasks-per-node=2":       {n: 4, tpn: 2, want: shape{2, 0, 4, 4, 2}},
		"-n4 -c2 --ntasks-per-node=2":   {n: 4, tpn: 2, cpt: 2, want: shape{2, 0, 8, 4, 4}},
		"-n1 --ntasks-per-node=2":       {n: 1, tpn: 2, want: shape{1, 0, 1, 1, 1}},
		"-n4 --ntasks-per-node=2 -N1-3": {n: 4, tpn: 2, minN: 1, maxN: 3, want: shape{2, 3, 4, 4, 2}},
		"-N2 -n4":                       {n: 4, minN: 2, maxN: 2, want: shape{2, 2, 4, 4, 1}},
		"-n12 (over one 8-CPU node)":    {n: 12, want: shape{2, 0, 12, 12, 1}},
		"-n3 -c4 (over one 8-CPU node)": {n: 3, cpt: 4, want: shape{2, 0, 12, 3, 4}},
		"-n8 (fits one node)":           {n: 8, want: shape{1, 0, 8, 8, 1}},
		"-n3 -N1-2":                     {n: 3, minN: 1, maxN: 2, want: shape{1, 2, 3, 3, 1}},
		// sbatch sends no task count for a -N range; slurmctld asks one
		// task's CPUs, or --ntasks-per-node on each least node (the peer:
		// -N2-4 -c3 NumCPUs=3 NumTasks=2, -N3-4 --ntasks-per-node=2
		// NumCPUs=6 NumTasks=6).
		"-N2-4 -c3":                 {cpt: 3, minN: 2, maxN: 4, want: shape{2, 4, 3, 2, 3}},
		"-N1-2 --ntasks-per-node=2": {tpn: 2, minN: 1, maxN: 2, want: shape{1, 2, 2, 2, 2}},
		// The peer shows --gpus=4 --gpus-per-node=2 as NumNodes=2-2
		// NumCPUs=1 NumTasks=2; -N2 alone as NumCPUs=2.
		"nodes from the GPUs": {minN: 2, maxN: 2, fromGPUs: true, want: shape{2, 2, 1, 2, 1}},
		"-N2":                 {minN: 2, maxN: 2, want: shape{2, 2, 2, 2, 1}},
	}
	h := newHarness(t)
	h.node("n01")
	h.node("n02")
	got, want := map[string]shape{}, map[string]shape{}
	for name, tc := range cases {
		id := h.mustSubmit(alice, simpleJob(func(r *job.Request) {
			r.Hold, r.NTasks, r.NTasksPerNode, r.CPUsPerTask = true, tc.n, tc.tpn, tc.cpt
			r.MinNodes, r.MaxNodes, r.Overcommit, r.NodesFromGPUs = tc.minN, tc.maxN, tc.over, tc.fromGPUs
		}))
		j := h.job(fmt.Sprint(id))
		got[name] = shape{j.NodeCount, j.MaxNodes, j.CPUs, j.Tasks, j.MinCPUsNode}
		want[name] = tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pending shape (-want +got):\n%s", diff)
	}
}

// TestS16PendingNodes: -n over --ntasks-per-node rounds down, as the
// peer shows it (node_count and NumNodes), whatever the cluster's size.
func TestS16PendingNodes(t *testing.T) {
	cases := map[string]struct {
		q    job.Request
		want int
	}{
		"-n5 --ntasks-per-node=2":       {job.Request{NTasks: 5, NTasksPerNode: 2}, 2},
		"-n8 --ntasks-per-node=3":       {job.Request{NTasks: 8, NTasksPerNode: 3}, 2},
		"-n6 --ntasks-per-node=2 -N1-2": {job.Request{NTasks: 6, NTasksPerNode: 2, MinNodes: 1, MaxNodes: 2}, 3},
		"-n7 --ntasks-per-node=2 -N4":   {job.Request{NTasks: 7, NTasksPerNode: 2, MinNodes: 4, MaxNodes: 4}, 4},
		"-n4 --ntasks-per-node=1":       {job.Request{NTasks: 4, NTasksPerNode: 1}, 4},
		"-n1 --ntasks-per-node=2":       {job.Request{NTasks: 1, NTasksPerNode: 2}, 1},
		"-N2-3":                         {job.Request{MinNodes: 2, MaxNodes: 3}, 2},
	}
	got, want := map[string]int{}, map[string]int{}
	for name, tc := range cases {
		got[name], want[name] = pendingNodes(&tc.q), tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pending node count (-want +got):\n%s", diff)
	}
}

// TestS16TasksPerGPUShown: GPUs --ntasks-per-gpu derived from -n are not
// shown as TresPerJob (the peer's sbatch -n4 --ntasks-per-gpu=2 shows
// only NtasksPerTRES=2); GPUs asked for with --gpus are.
func TestS16TasksPerGPUShown(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	type shown struct {
		PerJob string
		PerGPU int
	}
	got := map[string]shown{}
	for name, fromTasks := range map[string]bool{"derived": true, "--gpus=2": false} {
		id := h.mustSubmit(alice, simpleJob(func(r *job.Request) {
			r.Hold, r.NTasks, r.NTasksPerGPU, r.GPUsFromTasks = true, 4, 2, fromTasks
			r.GPUs = []resource.GRES{{Name: "gpu", Count: 2}}
		}))
		j := h.job(fmt.Sprint(id))
		got[name] = shown{j.TRESPerJob, j.NTasksPerTRES}
	}
	want := map[string]shown{"derived": {"", 2}, "--gpus=2": {"gres:gpu:2", 2}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("shown (-want +got):\n%s", diff)
	}
}
