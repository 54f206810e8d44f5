package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// TestGPUTaskCPUsS16D: --gpus-per-task with --cpus-per-gpu shows the
// CPUs per task, MinCPUsNode and NumCPUs the peer showed (scontrol show
// job): held -n2 --gpus-per-task=2 --cpus-per-gpu=3 NumCPUs=2
// CPUs/Task=6 MinCPUsNode=6; with --ntasks-per-node=2 MinCPUsNode=12
// (CPUs/Task times tasks per node); with --mincpus=20 MinCPUsNode=20;
// running -n1 --gpus-per-task=1 --cpus-per-gpu=4 NumCPUs=4 CPUs/Task=4
// MinCPUsNode=4. Sizes are scaled to the harness's 8-CPU, 4-GPU nodes.
func TestGPUTaskCPUsS16D(t *testing.T) {
	type shape struct{ CPUs, CPUsPerTask, MinCPUsNode int }
	cases := map[string]struct {
		n, tpn, minCPUs, gpt, cpg int
		run                       bool
		want                      shape
	}{
		"held -n2 gpt=2 cpg=3":         {n: 2, gpt: 2, cpg: 3, want: shape{2, 6, 6}},
		"held -n2 tpn=2 gpt=2 cpg=2":   {n: 2, tpn: 2, gpt: 2, cpg: 2, want: shape{2, 4, 8}},
		"held -n2 gpt=2 cpg=3 mincpus": {n: 2, minCPUs: 7, gpt: 2, cpg: 3, want: shape{2, 6, 7}},
		"held -n2 gpt=2 (no cpg)":      {n: 2, gpt: 2, want: shape{2, 1, 1}},
		"running -n1 gpt=1 cpg=4":      {n: 1, gpt: 1, cpg: 4, run: true, want: shape{0, 4, 4}},
	}
	h := newHarness(t)
	n := h.node("n01")
	got, want := map[string]shape{}, map[string]shape{}
	for name, tc := range cases {
		id := h.mustSubmit(alice, simpleJob(func(r *job.Request) {
			r.Hold, r.NTasks, r.NTasksPerNode, r.MinCPUs = !tc.run, tc.n, tc.tpn, tc.minCPUs
			r.GPUsPerTask, r.CPUsPerGPU = []resource.GRES{{Name: "gpu", Count: int64(tc.gpt)}}, tc.cpg
		}))
		if tc.run {
			h.cycle()
			n.Launch(t, id, 5*time.Second)
		}
		j := h.job(fmt.Sprint(id))
		got[name] = shape{j.CPUs, j.CPUsPerTask, j.MinCPUsNode}
		if tc.run {
			got[name] = shape{0, j.CPUsPerTask, j.MinCPUsNode} // NumCPUs: the allocation's
		}
		want[name] = tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("shape (-want +got):\n%s", diff)
	}
}
