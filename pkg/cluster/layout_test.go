package cluster

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/sched"
)

func cpuAlloc(node string, cpus int) sched.NodeAlloc {
	return sched.NodeAlloc{Node: node, CPUs: cpus, MemMB: int64(1024 * cpus)}
}

// TestSettleGivesTheRestToTheFirstNode checks that a start's nodes come in
// node order with the largest CPU share on the first, as the peer lays out
// -N3 -n4 (SLURM_JOB_CPUS_PER_NODE=2,1(x2)), whichever node the scheduler
// gave the share to, and only where the first node has room.
func TestSettleGivesTheRestToTheFirstNode(t *testing.T) {
	tests := map[string]struct {
		busy   int // CPUs already used on gpu01
		others []sched.NodeAlloc
		alloc  []sched.NodeAlloc
		want   []sched.NodeAlloc
	}{
		"rest on the last pick moves to the first node": {
			alloc: []sched.NodeAlloc{cpuAlloc("gpu02", 1), cpuAlloc("gpu03", 1), cpuAlloc("gpu01", 2)},
			want:  []sched.NodeAlloc{cpuAlloc("gpu01", 2), cpuAlloc("gpu02", 1), cpuAlloc("gpu03", 1)},
		},
		"rest on a later node moves": {
			alloc: []sched.NodeAlloc{cpuAlloc("gpu01", 1), cpuAlloc("gpu02", 3)},
			want:  []sched.NodeAlloc{cpuAlloc("gpu01", 3), cpuAlloc("gpu02", 1)},
		},
		"no room on the first node: shares stay": {
			busy:  63,
			alloc: []sched.NodeAlloc{cpuAlloc("gpu01", 1), cpuAlloc("gpu02", 3)},
			want:  []sched.NodeAlloc{cpuAlloc("gpu01", 1), cpuAlloc("gpu02", 3)},
		},
		"a later start of the plan keeps its room": {
			busy:   60,
			others: []sched.NodeAlloc{cpuAlloc("gpu01", 3)},
			alloc:  []sched.NodeAlloc{cpuAlloc("gpu01", 1), cpuAlloc("gpu02", 3)},
			want:   []sched.NodeAlloc{cpuAlloc("gpu01", 1), cpuAlloc("gpu02", 3)},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := newTestCluster(t, 3)
			j := JobSpec{ID: 1, Partitions: []string{"normal"}, Tenant: "a", User: "alice",
				Shape: sched.Shape{Nodes: len(tc.alloc), CPUs: 4, MemPerCPU: 1024}, Limit: time.Hour, Submit: t0}
			mustSubmit(t, c, j)
			plan := &sched.Plan{Now: t0}
			if tc.busy > 0 {
				b := j
				b.ID, b.Shape = 2, sched.Shape{CPUs: tc.busy}
				mustSubmit(t, c, b)
				mustApply(t, c, startPlan(t0, 2, cpuAlloc("gpu01", tc.busy)))
			}
			plan.Starts = append(plan.Starts, sched.Start{Job: 1, Partition: "normal", Alloc: tc.alloc})
			if tc.others != nil {
				o := j
				o.ID = 3
				mustSubmit(t, c, o)
				plan.Starts = append(plan.Starts, sched.Start{Job: 3, Partition: "normal", Alloc: tc.others})
			}
			acts := mustApply(t, c, plan)
			if diff := cmp.Diff(tc.want, acts[0].Alloc); diff != "" {
				t.Errorf("allocation (-want +got):\n%s", diff)
			}
		})
	}
}
