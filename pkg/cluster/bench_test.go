package cluster

import (
	"fmt"
	"testing"

	"github.com/loamhpc/loam/pkg/sched"
)

// benchCluster is 4,096 nodes with n pending jobs: the controller's scale.
func benchCluster(b *testing.B, n int) *Cluster {
	var nodes []sched.Node
	for i := range 4096 {
		nodes = append(nodes, sched.Node{Name: fmt.Sprintf("n%04d", i), CPUs: 128, MemMB: 1 << 20, GPUs: 8})
	}
	c, err := New(testConfig(), nodes)
	if err != nil {
		b.Fatal(err)
	}
	for id := sched.JobID(1); id <= sched.JobID(n); id++ {
		if err := c.Submit(spec(id, 8)); err != nil {
			b.Fatal(err)
		}
	}
	return c
}

// BenchmarkSnapshot100k: the controller takes a snapshot every cycle.
func BenchmarkSnapshot100k(b *testing.B) {
	c := benchCluster(b, 100_000)
	b.ReportAllocs()
	for b.Loop() {
		if snap := c.Snapshot(t0); len(snap.Pending) != 100_000 {
			b.Fatal("wrong snapshot")
		}
	}
}

// BenchmarkApplyPlan100k stores a plan that reports every one of 100k
// pending jobs (reasons, priorities) and starts 1,000 of them.
func BenchmarkApplyPlan100k(b *testing.B) {
	c := benchCluster(b, 100_000)
	plan := &sched.Plan{Now: t0}
	for id := sched.JobID(1); id <= 100_000; id++ {
		plan.Pending = append(plan.Pending, sched.Pending{Job: id, Reason: "Priority", Priority: int64(id)})
		plan.Priorities = append(plan.Priorities, sched.PriorityChange{Job: id, New: int64(id)})
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		p := *plan
		p.Starts = nil
		for i := range 1000 {
			p.Starts = append(p.Starts, sched.Start{Job: sched.JobID(i + 1), Partition: "normal",
				Alloc: []sched.NodeAlloc{alloc(fmt.Sprintf("n%04d", i), 0, 1, 2, 3, 4, 5, 6, 7)}})
		}
		b.StartTimer()
		if _, err := c.ApplyPlan(&p); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		for i := range 1000 {
			if err := c.Forget(sched.JobID(i+1), t0); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
	}
}
