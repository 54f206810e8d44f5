package controller

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestTaskShareRefusals: GPUs from -n and --ntasks-per-gpu put an equal
// share of the tasks on each of the job's least nodes, as the peer
// refuses and runs them (its nodes: 64 CPUs, 8 GPUs, like gpu[1-4] here).
func TestTaskShareRefusals(t *testing.T) {
	cs := admissionState(t)
	for name, tc := range map[string]struct {
		tasks, perGPU, cpt   int
		minNodes, maxNodes   int
		nodesSet, overcommit bool
		want                 api.Code
	}{
		"-n64 --ntasks-per-gpu=4: one node's CPUs":          {tasks: 64, perGPU: 4},
		"-n68 --ntasks-per-gpu=4: more than one node holds": {tasks: 68, perGPU: 4, want: api.CodeNodeConfigUnavailable},
		"-n32 -c2 --ntasks-per-gpu=2":                       {tasks: 32, perGPU: 2, cpt: 2},
		"-n34 -c2 --ntasks-per-gpu=2":                       {tasks: 34, perGPU: 2, cpt: 2, want: api.CodeNodeConfigUnavailable},
		"-n68 -N1-4 --ntasks-per-gpu=4":                     {tasks: 68, perGPU: 4, minNodes: 1, maxNodes: 4, nodesSet: true, want: api.CodeNodeConfigUnavailable},
		"-n68 -N2-4 --ntasks-per-gpu=4: 34 a node":          {tasks: 68, perGPU: 4, minNodes: 2, maxNodes: 4, nodesSet: true},
		"-n132 -N2-4 --ntasks-per-gpu=6: 66 a node":         {tasks: 132, perGPU: 6, minNodes: 2, maxNodes: 4, nodesSet: true, want: api.CodeNodeConfigUnavailable},
		"-n12 -N3 --ntasks-per-gpu=1":                       {tasks: 12, perGPU: 1, minNodes: 3, maxNodes: 3, nodesSet: true},
		"-n16 -N3 --ntasks-per-gpu=1: uneven":               {tasks: 16, perGPU: 1, minNodes: 3, maxNodes: 3, nodesSet: true, want: api.CodeNodeConfigUnavailable},
		"-n16 -N3-4 --ntasks-per-gpu=1: a range":            {tasks: 16, perGPU: 1, minNodes: 3, maxNodes: 4, nodesSet: true},
		"-n68 -O --ntasks-per-gpu=4: tasks share CPUs":      {tasks: 68, perGPU: 4, overcommit: true},
	} {
		t.Run(name, func(t *testing.T) {
			r := job.Request{NTasks: tc.tasks, NTasksPerGPU: tc.perGPU, CPUsPerTask: tc.cpt, GPUsFromTasks: true,
				GPUs: gpus(int64(tc.tasks / tc.perGPU)), MinNodes: tc.minNodes, MaxNodes: tc.maxNodes,
				NodesSet: tc.nodesSet, Overcommit: tc.overcommit}
			a := &admitted{req: &r, partitions: []string{"normal"}}
			var got api.Code
			if aerr := checkCapacity(cs, a); aerr != nil {
				got = aerr.Code
			}
			if got != tc.want {
				t.Errorf("checkCapacity: %q, want %q", got, tc.want)
			}
		})
	}
}
