package cluster

import (
	"strconv"
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

// TestSpillDealsNodeByNode checks the CPU layout rule on its own: one task
// per node, then each node in order filled to its free tasks.
func TestSpillDealsNodeByNode(t *testing.T) {
	tests := map[string]struct {
		tasks int
		free  []int
		want  []int
		ok    bool
	}{
		"the first node takes the rest":  {4, []int{64, 64}, []int{3, 1}, true},
		"full nodes then the rest":       {70, []int{32, 32, 32}, []int{32, 32, 6}, true},
		"three levels":                   {140, []int{64, 64, 64, 64}, []int{64, 64, 11, 1}, true},
		"a busy node takes what it has":  {100, []int{64, 14, 64}, []int{64, 14, 22}, true},
		"a node with one free task":      {4, []int{1, 64}, []int{1, 3}, true},
		"too many tasks":                 {10, []int{4, 4}, nil, false},
		"fewer tasks than nodes":         {1, []int{4, 4}, nil, false},
		"a node without room is refused": {4, []int{0, 64}, nil, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := spill(tc.tasks, tc.free)
			if ok != tc.ok {
				t.Fatalf("spill(%d, %v) ok = %v, want %v", tc.tasks, tc.free, ok, tc.ok)
			}
			if !ok {
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("tasks per node (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSettleSpillsLikeSlurm checks applied CPU layouts against what the
// peer (Slurm 22.05, 64-CPU nodes, DefMemPerCPU=1024) printed as
// SLURM_JOB_CPUS_PER_NODE for the same requests on the same free CPUs,
// whatever shares the scheduler picked.
func TestSettleSpillsLikeSlurm(t *testing.T) {
	tests := map[string]struct {
		shape sched.Shape
		busy  map[string]int // CPUs used by another job
		alloc []int          // the scheduler's shares on gpu01, gpu02, ...
		want  []int
	}{
		// sbatch -N2 -n100 -w gpu[031-032]: TPN=64,36.
		"-N2 -n100 fills the first node": {sched.Shape{Nodes: 2, CPUs: 100}, nil, []int{50, 50}, []int{64, 36}},
		// -N3 -n150: 64(x2),22.
		"-N3 -n150 fills two nodes": {sched.Shape{Nodes: 3, CPUs: 150}, nil, []int{50, 50, 50}, []int{64, 64, 22}},
		// -N4 -n140: 64(x2),11,1.
		"-N4 -n140 leaves one task on the last": {sched.Shape{Nodes: 4, CPUs: 140}, nil, []int{35, 35, 35, 35}, []int{64, 64, 11, 1}},
		// -n150 -C gpu (no -N): 64(x2),22 on gpu[001-003].
		"-n150 without a node count": {sched.Shape{CPUs: 150}, nil, []int{50, 50, 50}, []int{64, 64, 22}},
		// -N3 -n25 -c3: CPN=63,9,3, TPN=21,3,1.
		"-N3 -n25 -c3 in whole tasks": {sched.Shape{Nodes: 3, CPUs: 75, CPUsPerNode: 3}, nil, []int{27, 24, 24}, []int{63, 9, 3}},
		// gpu031 with 40 CPUs busy, -N2 -n80 -w gpu[031-032]: 24,56.
		"a busy first node gives what it has": {sched.Shape{Nodes: 2, CPUs: 80}, map[string]int{"gpu01": 40}, []int{24, 56}, []int{24, 56}},
		// gpu028 with 40 busy, -N2 -n80 -w gpu[027-028]: 64,16.
		"a busy last node": {sched.Shape{Nodes: 2, CPUs: 80}, map[string]int{"gpu02": 40}, []int{56, 24}, []int{64, 16}},
		// gpu031 with 40 busy, -N2 -n40 -w gpu[031-032]: 24,16 (no spill).
		"the rest split over two nodes": {sched.Shape{Nodes: 2, CPUs: 40}, map[string]int{"gpu01": 40}, []int{1, 39}, []int{24, 16}},
		// gpu030 with 50 busy, -N3 -n100 -w gpu[029-031]: 64,14,22.
		"a busy middle node": {sched.Shape{Nodes: 3, CPUs: 100}, map[string]int{"gpu02": 50}, []int{40, 14, 46}, []int{64, 14, 22}},
		// -w gpu032 -n70: gpu031 6, gpu032 64; -w gpu032 -n100 36, 64.
		"the -w node fills first": {sched.Shape{CPUs: 70, NodeList: []string{"gpu02"}}, nil, []int{35, 35}, []int{6, 64}},
		"-w with more tasks":      {sched.Shape{CPUs: 100, NodeList: []string{"gpu02"}}, nil, []int{50, 50}, []int{36, 64}},
		// --exclusive holds whole nodes (the peer: -N2 -n4 --exclusive
		// on 32-CPU nodes, 32(x2)); they stay whole.
		"exclusive nodes stay": {sched.Shape{Nodes: 3, CPUs: 4, Exclusive: true}, nil, []int{64, 64, 64}, []int{64, 64, 64}},
		// --ntasks-per-node=30 -N3 -n70: 30(x3), CPUs per node only.
		"per-node CPUs stay": {sched.Shape{Nodes: 3, CPUsPerNode: 30}, nil, []int{30, 30, 30}, []int{30, 30, 30}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := newTestCluster(t, len(tc.alloc))
			tc.shape.MemPerCPU = 1024
			j := JobSpec{ID: 1, Partitions: []string{"normal"}, Tenant: "a", User: "alice",
				Shape: tc.shape, Limit: time.Hour, Submit: t0}
			mustSubmit(t, c, j)
			id := sched.JobID(2)
			for node, cpus := range tc.busy {
				b := j
				b.ID, b.Shape = id, sched.Shape{CPUs: cpus, MemPerCPU: 1024}
				mustSubmit(t, c, b)
				mustApply(t, c, startPlan(t0, id, cpuAlloc(node, cpus)))
				id++
			}
			var alloc, want []sched.NodeAlloc
			for i := range tc.alloc {
				node := "gpu0" + strconv.Itoa(i+1)
				alloc = append(alloc, cpuAlloc(node, tc.alloc[i]))
				want = append(want, cpuAlloc(node, tc.want[i]))
			}
			acts := mustApply(t, c, startPlan(t0, 1, alloc...))
			if diff := cmp.Diff(want, acts[0].Alloc); diff != "" {
				t.Errorf("allocation (-want +got):\n%s", diff)
			}
		})
	}
}
