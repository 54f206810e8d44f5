package cluster

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/sched"
)

func gpuAlloc(node string, cpus int, gpus ...int) sched.NodeAlloc {
	return sched.NodeAlloc{Node: node, CPUs: cpus, MemMB: int64(1024 * cpus), GPUs: gpus}
}

// TestSettleLaysGPUJobsLikeSlurm checks applied layouts of GPU and
// exclusive jobs against what the peer (Slurm 22.05, 64-CPU nodes with 8
// GPUs, DefMemPerCPU=1024) printed in scontrol show job -d for the same
// requests on idle nodes, whatever shares the scheduler picked.
func TestSettleLaysGPUJobsLikeSlurm(t *testing.T) {
	tests := map[string]struct {
		shape    sched.Shape
		perTask  int   // --gpus-per-task
		perGPU   int   // --cpus-per-gpu
		busyGPUs int   // GPUs 0.. of gpu01 used by another job
		heldGPUs []int // GPUs of gpu01 another job's reservation holds
		alloc    []sched.NodeAlloc
		want     []sched.NodeAlloc
	}{
		// sbatch -N2 -n4 --gres=gpu:2: CPU_IDs=0-1,32 Mem=3072 and
		// CPU_IDs=0 Mem=1024, SLURM_TASKS_PER_NODE=3,1.
		"-N2 -n4 --gres=gpu:2 fills the first node": {
			shape: sched.Shape{Nodes: 2, CPUs: 4, GPUsPerNode: 2, MemPerCPU: 1024},
			alloc: []sched.NodeAlloc{gpuAlloc("gpu01", 2, 0, 1), gpuAlloc("gpu02", 2, 0, 1)},
			want:  []sched.NodeAlloc{gpuAlloc("gpu01", 3, 0, 1), gpuAlloc("gpu02", 1, 0, 1)},
		},
		// sbatch -N2 -n16 --gpus-per-node=8: 15,1 CPUs.
		"-N2 -n16 --gpus-per-node=8 fills the first node": {
			shape: sched.Shape{Nodes: 2, CPUs: 16, GPUsPerNode: 8, MemPerCPU: 1024},
			alloc: []sched.NodeAlloc{gpuAlloc("gpu01", 8, 0, 1, 2, 3, 4, 5, 6, 7), gpuAlloc("gpu02", 8, 0, 1, 2, 3, 4, 5, 6, 7)},
			want:  []sched.NodeAlloc{gpuAlloc("gpu01", 15, 0, 1, 2, 3, 4, 5, 6, 7), gpuAlloc("gpu02", 1, 0, 1, 2, 3, 4, 5, 6, 7)},
		},
		// sbatch -N2 -n4 --gpus-per-task=1: CPU_IDs=0-1,32
		// GRES=gpu:3(IDX:0-2) and CPU_IDs=0 GRES=gpu:1(IDX:0).
		"--gpus-per-task: the GPUs follow the tasks": {
			shape: sched.Shape{Nodes: 2, CPUs: 4, GPUs: 4, MemPerCPU: 1024}, perTask: 1,
			alloc: []sched.NodeAlloc{gpuAlloc("gpu01", 2, 0, 1), gpuAlloc("gpu02", 2, 0, 1)},
			want:  []sched.NodeAlloc{gpuAlloc("gpu01", 3, 0, 1, 2), gpuAlloc("gpu02", 1, 0)},
		},
		// sbatch -N2 -n6 --gpus-per-task=2: 4,2 tasks (8 GPUs hold 4
		// tasks), GRES=gpu:8 and gpu:4.
		"--gpus-per-task: no more tasks than the GPUs hold": {
			shape: sched.Shape{Nodes: 2, CPUs: 6, GPUs: 12, MemPerCPU: 1024}, perTask: 2,
			alloc: []sched.NodeAlloc{gpuAlloc("gpu01", 3, 0, 1, 2, 3, 4, 5), gpuAlloc("gpu02", 3, 0, 1, 2, 3, 4, 5)},
			want:  []sched.NodeAlloc{gpuAlloc("gpu01", 4, 0, 1, 2, 3, 4, 5, 6, 7), gpuAlloc("gpu02", 2, 0, 1, 2, 3)},
		},
		// sbatch --gpus=12: GRES=gpu:8(IDX:0-7) and gpu:4(IDX:0-3).
		"--gpus fills the first node": {
			shape: sched.Shape{CPUs: 1, GPUs: 12, MemPerCPU: 1024},
			alloc: []sched.NodeAlloc{gpuAlloc("gpu01", 1, 0, 1, 2, 3, 4, 5), gpuAlloc("gpu02", 1, 0, 1, 2, 3, 4, 5)},
			want:  []sched.NodeAlloc{gpuAlloc("gpu01", 1, 0, 1, 2, 3, 4, 5, 6, 7), gpuAlloc("gpu02", 1, 0, 1, 2, 3)},
		},
		// sbatch -N3 --gpus=4: 2,1,1 GPUs (the scheduler's shares are 2,2,0).
		"--gpus gives every node one first": {
			shape: sched.Shape{Nodes: 3, CPUsPerNode: 1, GPUs: 4, MemPerCPU: 1024},
			alloc: []sched.NodeAlloc{gpuAlloc("gpu01", 1, 0, 1), gpuAlloc("gpu02", 1, 0, 1), gpuAlloc("gpu03", 1)},
			want:  []sched.NodeAlloc{gpuAlloc("gpu01", 1, 0, 1), gpuAlloc("gpu02", 1, 0), gpuAlloc("gpu03", 1, 0)},
		},
		// sbatch -N2 -n4 --gpus=4: CPU_IDs=0-1,32 GRES=gpu:3(IDX:0-2) and
		// CPU_IDs=0 GRES=gpu:1(IDX:0): the CPUs fill too.
		"--gpus with -n fills CPUs and GPUs": {
			shape: sched.Shape{Nodes: 2, CPUs: 4, GPUs: 4, MemPerCPU: 1024},
			alloc: []sched.NodeAlloc{gpuAlloc("gpu01", 2, 0, 1), gpuAlloc("gpu02", 2, 0, 1)},
			want:  []sched.NodeAlloc{gpuAlloc("gpu01", 3, 0, 1, 2), gpuAlloc("gpu02", 1, 0)},
		},
		// sbatch -N2 --gpus=2 --cpus-per-gpu=2: 2(x2) CPUs, a GPU each.
		"--gpus with --cpus-per-gpu: the CPUs follow the GPUs": {
			shape: sched.Shape{Nodes: 2, CPUs: 4, GPUs: 2, MemPerCPU: 1024}, perGPU: 2,
			alloc: []sched.NodeAlloc{gpuAlloc("gpu01", 2, 0), gpuAlloc("gpu02", 2, 0)},
			want:  []sched.NodeAlloc{gpuAlloc("gpu01", 2, 0), gpuAlloc("gpu02", 2, 0)},
		},
		// sbatch --gpus=12 --cpus-per-gpu=2 on 8-GPU nodes: 8,4 GPUs.
		"--gpus=12 --cpus-per-gpu=2": {
			shape: sched.Shape{CPUs: 24, GPUs: 12, MemPerCPU: 1024}, perGPU: 2,
			alloc: []sched.NodeAlloc{gpuAlloc("gpu01", 12, 0, 1, 2, 3, 4, 5), gpuAlloc("gpu02", 12, 0, 1, 2, 3, 4, 5)},
			want:  []sched.NodeAlloc{gpuAlloc("gpu01", 16, 0, 1, 2, 3, 4, 5, 6, 7), gpuAlloc("gpu02", 8, 0, 1, 2, 3)},
		},
		// GPUs 0-2 of gpu01 busy: --gpus=12 takes the 5 free there.
		"--gpus takes what a busy node has free": {
			shape: sched.Shape{CPUs: 1, GPUs: 12, MemPerCPU: 1024}, busyGPUs: 3,
			alloc: []sched.NodeAlloc{gpuAlloc("gpu01", 1, 3, 4, 5, 6, 7), gpuAlloc("gpu02", 1, 0, 1, 2, 3, 4, 5, 6)},
			want:  []sched.NodeAlloc{gpuAlloc("gpu01", 1, 3, 4, 5, 6, 7), gpuAlloc("gpu02", 1, 0, 1, 2, 3, 4, 5, 6)},
		},
		// A reservation holds GPUs 6-7 of gpu01: they are not taken.
		"--gpus leaves another job's reservation alone": {
			shape: sched.Shape{CPUs: 1, GPUs: 12, MemPerCPU: 1024}, heldGPUs: []int{6, 7},
			alloc: []sched.NodeAlloc{gpuAlloc("gpu01", 1, 0, 1, 2, 3, 4, 5), gpuAlloc("gpu02", 1, 0, 1, 2, 3, 4, 5)},
			want:  []sched.NodeAlloc{gpuAlloc("gpu01", 1, 0, 1, 2, 3, 4, 5), gpuAlloc("gpu02", 1, 0, 1, 2, 3, 4, 5)},
		},
		// sbatch -N2 --exclusive on 32-CPU nodes: CPU_IDs=0-31 Mem=32768
		// a node, so CPUs times DefMemPerCPU, not the node's memory.
		"--exclusive holds memory per CPU": {
			shape: sched.Shape{Nodes: 2, CPUsPerNode: 1, Exclusive: true, MemPerCPU: 1024},
			alloc: []sched.NodeAlloc{
				{Node: "gpu01", CPUs: 64, MemMB: 512000, GPUs: []int{0, 1, 2, 3, 4, 5, 6, 7}},
				{Node: "gpu02", CPUs: 64, MemMB: 512000, GPUs: []int{0, 1, 2, 3, 4, 5, 6, 7}},
			},
			want: []sched.NodeAlloc{
				{Node: "gpu01", CPUs: 64, MemMB: 65536, GPUs: []int{0, 1, 2, 3, 4, 5, 6, 7}},
				{Node: "gpu02", CPUs: 64, MemMB: 65536, GPUs: []int{0, 1, 2, 3, 4, 5, 6, 7}},
			},
		},
		// sbatch -N2 -n2 --exclusive --mem=1000: Mem=1000 a node.
		"--exclusive --mem holds what it asks": {
			shape: sched.Shape{Nodes: 1, CPUsPerNode: 1, Exclusive: true, MemPerNode: 1000},
			alloc: []sched.NodeAlloc{{Node: "gpu01", CPUs: 64, MemMB: 512000}},
			want:  []sched.NodeAlloc{{Node: "gpu01", CPUs: 64, MemMB: 1000}},
		},
		// --exclusive --mem=0 leaves MemPerNode at 0 (ShapeOf): all of it.
		"--exclusive --mem=0 holds the node's memory": {
			shape: sched.Shape{Nodes: 1, CPUsPerNode: 1, Exclusive: true},
			alloc: []sched.NodeAlloc{{Node: "gpu01", CPUs: 64, MemMB: 512000}},
			want:  []sched.NodeAlloc{{Node: "gpu01", CPUs: 64, MemMB: 512000}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := newTestCluster(t, len(tc.alloc))
			j := JobSpec{ID: 1, Partitions: []string{"normal"}, Tenant: "a", User: "alice",
				Shape: tc.shape, GPUsPerTask: tc.perTask, CPUsPerGPU: tc.perGPU, Limit: time.Hour, Submit: t0}
			mustSubmit(t, c, j)
			if tc.busyGPUs > 0 {
				mustSubmit(t, c, spec(2, tc.busyGPUs))
				gpus := make([]int, tc.busyGPUs)
				for i := range gpus {
					gpus[i] = i
				}
				mustApply(t, c, startPlan(t0, 2, alloc("gpu01", gpus...)))
			}
			plan := startPlan(t0, 1, tc.alloc...)
			if tc.heldGPUs != nil {
				mustSubmit(t, c, spec(3, len(tc.heldGPUs)))
				plan.Reservations = []sched.ReservationChange{{Action: sched.ReserveCreate,
					Reservation: sched.Reservation{Job: 3, Partition: "normal", Created: t0, PlannedStart: t0.Add(time.Hour),
						Alloc: []sched.NodeAlloc{alloc("gpu01", tc.heldGPUs...)}}}}
			}
			acts := mustApply(t, c, plan)
			if diff := cmp.Diff(tc.want, acts[0].Alloc); diff != "" {
				t.Errorf("allocation (-want +got):\n%s", diff)
			}
		})
	}
}
