package command

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSrunAllocationCommandS16D: the allocation srun makes names its
// program as given, which the controller shows as Command (the peer:
// srun /usr/bin/hostname -s, Command=/usr/bin/hostname).
func TestSrunAllocationCommandS16D(t *testing.T) {
	one := api.StepLayout{NodeList: "n01", Tasks: 1, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0}}}}
	ready := api.Allocation{JobID: 7, State: job.Running, Ready: true, Name: "hostname", Partition: "normal",
		ClusterName: "c", NodeList: "n01", Nodes: []api.NodeAllocation{{Node: "n01", CPUs: 1}}, TasksPerNode: []int{1}}
	tc := srunCase{
		args: []string{"-N1", "/usr/bin/hostname", "-s"}, layout: one,
		waits: []api.Allocation{ready},
		script: []func(n *fakeNode){func(n *fakeNode) {
			n.out(0, "n01\n")
			n.exit(api.StepIOExit{Tasks: []int{0}})
			n.done()
		}},
		wantStdout: "n01\n",
	}
	f, _ := runSrunCase(t, tc)
	if len(f.allocs) != 1 || f.allocs[0].Command != "/usr/bin/hostname" {
		t.Errorf("allocation asked %+v, want Command /usr/bin/hostname", f.allocs)
	}
}
