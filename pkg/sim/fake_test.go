package sim

import (
	"cmp"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

// firstFit is a test double for sched.Scheduler: urgent jobs first, then
// jobs in id order, each on
// the first nodes with enough free GPUs, no backfill past the first job
// that does not fit. A blocked job of an "urgent" partition preempts the
// running job of another partition that holds the most GPUs on one node,
// if that would make room. It lets the replay machinery be tested without
// the real scheduler.
type firstFit struct {
	grace time.Duration
	mode  sched.PreemptMode // 0 (PreemptOff) means requeue here
}

func (f firstFit) Cycle(snap *sched.Snapshot) *sched.Plan {
	free := map[string][]bool{}
	for _, n := range snap.Nodes {
		free[n.Name] = make([]bool, n.GPUs)
		for g := range free[n.Name] {
			free[n.Name][g] = n.State == sched.NodeUp
		}
	}
	for _, r := range snap.Running {
		for _, a := range r.Alloc {
			for _, g := range a.GPUs {
				free[a.Node][g] = false
			}
		}
	}
	pend := slices.Clone(snap.Pending)
	slices.SortFunc(pend, func(a, b sched.PendingJob) int {
		if ua, ub := a.Partitions[0] == "urgent", b.Partitions[0] == "urgent"; ua != ub {
			if ua {
				return -1
			}
			return 1
		}
		return int(a.ID) - int(b.ID)
	})
	plan := &sched.Plan{Now: snap.Now}
	blocked := false
	for _, p := range pend {
		if !blocked && p.Hold == sched.NotHeld {
			if alloc, ok := place(snap.Nodes, free, p.Shape); ok {
				plan.Starts = append(plan.Starts, sched.Start{Job: p.ID, Partition: p.Partitions[0], Alloc: alloc})
				continue
			}
			blocked = true
			if p.Partitions[0] == "urgent" {
				plan.Preemptions = append(plan.Preemptions, f.victims(snap, p)...)
			}
		}
		plan.Pending = append(plan.Pending, sched.Pending{Job: p.ID, Reason: "Resources", Partition: p.Partitions[0]})
	}
	return plan
}

func (f firstFit) victims(snap *sched.Snapshot, p sched.PendingJob) []sched.Preemption {
	for _, r := range snap.Running {
		if r.Partition != "urgent" && !r.Preempting && len(r.Alloc) == 1 && len(r.Alloc[0].GPUs) >= gpusOf(p.Shape) {
			return []sched.Preemption{{Victim: r.ID, Beneficiary: p.ID, Reason: sched.PreemptUrgent,
				Mode: cmp.Or(f.mode, sched.PreemptRequeue), Grace: f.grace}}
		}
	}
	return nil
}

// place puts shape on whole free GPUs: one node, or Nodes nodes with
// GPUsPerNode each. CPUs are one per GPU (at least one), no memory.
func place(nodes []sched.Node, free map[string][]bool, s sched.Shape) ([]sched.NodeAlloc, bool) {
	count, per := 1, gpusOf(s)
	if s.Nodes > 1 {
		count, per = s.Nodes, s.GPUsPerNode
	}
	var out []sched.NodeAlloc
	for _, n := range nodes {
		var gpus []int
		for g, ok := range free[n.Name] {
			if ok && len(gpus) < per {
				gpus = append(gpus, g)
			}
		}
		if len(gpus) == per && len(out) < count && n.State == sched.NodeUp {
			out = append(out, sched.NodeAlloc{Node: n.Name, CPUs: max(per, 1), GPUs: gpus})
		}
	}
	if len(out) < count {
		return nil, false
	}
	for _, a := range out {
		for _, g := range a.GPUs {
			free[a.Node][g] = false
		}
	}
	return out, true
}
