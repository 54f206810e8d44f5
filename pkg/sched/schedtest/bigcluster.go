package schedtest

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

// BigCluster builds the benchmark cluster of the scheduler's performance
// target: nodes nodes of 8 GPUs, 64 CPUs and 1 TB in leaf switches of 32,
// three queues (urgent over all nodes, normal and batch), 8 tenants with
// weights and guarantees, 40 users, a busy share of the GPUs running, and
// pending jobs of a realistic mix: mostly 1-8 GPUs on one node, some 2-16
// whole nodes, a few 32-128 nodes; limits from 30 minutes to 3 days. The
// same seed gives the same cluster.
func BigCluster(seed uint64, nodes, pending int, busy float64) (sched.Config, *sched.Snapshot) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	cfg := Config()
	cfg.Priority.WeightJobSize = 500
	cfg.PreemptExemptTime = 10 * time.Minute
	all := fmt.Sprintf("n[%05d-%05d]", 1, nodes)
	cfg.Partitions = []sched.Partition{
		Partition("urgent", all).Class(sched.ClassUrgent).Tier(3).JobFactor(3).Depth(2).Build(),
		Partition("normal", all).Tier(2).JobFactor(2).Depth(4).Aging(10, 500).Timeout("6h", "2h").Build(),
		Partition("batch", all).Class(sched.ClassBatch).Tier(1).Depth(2).Aging(20, 1000).
			Preempt(sched.PreemptRequeue, "5m").Timeout("12h", "4h").Build(),
	}
	for s := 0; s*32 < nodes; s++ {
		cfg.Switches = append(cfg.Switches, sched.Switch{Name: fmt.Sprintf("leaf%d", s),
			Nodes: []string{fmt.Sprintf("n[%05d-%05d]", s*32+1, min(s*32+32, nodes))}})
	}
	gpus := int64(nodes * 8)
	for t := 0; t < 8; t++ {
		name := fmt.Sprintf("t%d", t)
		cfg.Tenants = append(cfg.Tenants, Tenant(name).Weight(float64(1+t%4)).Guarantee(gpus/10).
			Borrow(gpus/4).Lend(gpus/10).Build())
		for u := 0; u < 5; u++ {
			cfg.Users = append(cfg.Users, User(fmt.Sprintf("u%d_%d", t, u), name).Build())
		}
	}
	snap := &sched.Snapshot{Now: Epoch.Add(30 * 24 * time.Hour)}
	snap.Nodes = Nodes(all).CPUs(64).Mem(1024000).Build()
	fillRunning(rng, snap, cfg, busy)
	for i := 0; i < pending; i++ {
		snap.Pending = append(snap.Pending, randomPending(rng, snap.Now, sched.JobID(1_000_000+i)))
	}
	for t := 0; t < 8; t++ {
		snap.Usage = append(snap.Usage, sched.Usage{Tenant: fmt.Sprintf("t%d", t), GPUSec: float64(rng.IntN(1e9))})
	}
	return cfg, snap
}

// fillRunning packs running jobs onto the nodes in order until busy of the
// GPUs are used: whole-node jobs and single-node jobs of 1-4 GPUs.
func fillRunning(rng *rand.Rand, snap *sched.Snapshot, cfg sched.Config, busy float64) {
	target := int(busy * float64(len(snap.Nodes)*8))
	used, id := 0, sched.JobID(1)
	for ni := 0; ni < len(snap.Nodes) && used < target; ni++ {
		free := 8
		for free > 0 && used < target {
			g := []int{1, 2, 4, 8}[rng.IntN(4)]
			g = min(g, free)
			gpus := make([]int, g)
			for k := range gpus {
				gpus[k] = 8 - free + k
			}
			t := rng.IntN(8)
			limit := time.Duration(1+rng.IntN(72)) * time.Hour
			snap.Running = append(snap.Running, sched.RunningJob{ID: id, Partition: []string{"normal", "batch"}[rng.IntN(2)],
				Tenant: fmt.Sprintf("t%d", t), User: fmt.Sprintf("u%d_%d", t, rng.IntN(5)), Priority: int64(rng.IntN(3000)),
				Start: snap.Now.Add(-time.Duration(rng.Int64N(int64(limit)))), Limit: limit,
				Alloc:   []sched.NodeAlloc{{Node: snap.Nodes[ni].Name, CPUs: g * 8, MemMB: int64(g) * 100000, GPUs: gpus}},
				Requeue: true})
			id++
			free -= g
			used += g
		}
	}
}

func randomPending(rng *rand.Rand, now time.Time, id sched.JobID) sched.PendingJob {
	t := rng.IntN(8)
	j := sched.PendingJob{ID: id, Tenant: fmt.Sprintf("t%d", t), User: fmt.Sprintf("u%d_%d", t, rng.IntN(5)),
		Submit: now.Add(-time.Duration(rng.IntN(7*24*60)) * time.Minute), ArrayRoom: -1}
	j.Eligible = j.Submit
	switch r := rng.IntN(100); {
	case r < 2:
		j.Partitions = []string{"urgent"}
	case r < 72:
		j.Partitions = []string{"normal"}
	default:
		j.Partitions = []string{"batch"}
	}
	switch r := rng.IntN(100); {
	case r < 60:
		j.Shape = sched.Shape{Nodes: 1, GPUs: []int{1, 2, 4}[rng.IntN(3)]}
	case r < 80:
		j.Shape = sched.Shape{Nodes: 1, GPUsPerNode: 8}
	case r < 95:
		j.Shape = sched.Shape{Nodes: 2 + rng.IntN(15), GPUsPerNode: 8}
	default:
		j.Shape = sched.Shape{Nodes: 32 << rng.IntN(3), GPUsPerNode: 8}
	}
	g := j.Shape.GPUs + j.Shape.GPUsPerNode
	j.Shape.CPUsPerNode = 8 * g
	j.Shape.MemPerNode = int64(g) * 100000
	j.Limit = []time.Duration{30 * time.Minute, 2 * time.Hour, 8 * time.Hour, 24 * time.Hour, 72 * time.Hour}[rng.IntN(5)]
	return j
}
