package cluster

import (
	"fmt"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func at(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }

func testConfig() sched.Config {
	return sched.Config{
		Partitions: []sched.Partition{
			{Name: "normal", Up: true, DefaultTime: time.Hour, MaxTime: 48 * time.Hour,
				ReservationDepth: 1, ReservationTimeout: time.Hour, ReservationCooldown: 10 * time.Minute},
			{Name: "batch", Up: true, MaxTime: 72 * time.Hour, ReservationCooldown: 30 * time.Minute},
		},
		Tenants:  []sched.Tenant{{Name: "a", Weight: 2}, {Name: "b", Weight: 1}},
		Users:    []sched.User{{Name: "alice", Tenant: "a"}},
		Priority: sched.PriorityConfig{DecayHalfLife: time.Hour},
	}
}

// testNodes returns n nodes gpuNN with 64 CPUs, 512000 MB and 8 GPUs.
func testNodes(n int) []sched.Node {
	var out []sched.Node
	for i := 1; i <= n; i++ {
		out = append(out, sched.Node{Name: fmt.Sprintf("gpu%02d", i), CPUs: 64, MemMB: 512000, GPUs: 8})
	}
	return out
}

func newTestCluster(t *testing.T, nodes int) *Cluster {
	t.Helper()
	c, err := New(testConfig(), testNodes(nodes))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func spec(id sched.JobID, gpus int) JobSpec {
	return JobSpec{ID: id, Partitions: []string{"normal"}, Tenant: "a", User: "alice",
		Shape: sched.Shape{GPUs: gpus, CPUs: gpus}, Limit: time.Hour, Submit: t0, Requeue: true}
}

func mustSubmit(t *testing.T, c *Cluster, s JobSpec) {
	t.Helper()
	if err := c.Submit(s); err != nil {
		t.Fatalf("Submit(%d): %v", s.ID, err)
	}
}

// alloc gives node the GPU indices gpus with one CPU and 1000 MB per GPU.
func alloc(node string, gpus ...int) sched.NodeAlloc {
	return sched.NodeAlloc{Node: node, CPUs: len(gpus), MemMB: int64(1000 * len(gpus)), GPUs: gpus}
}

func startPlan(now time.Time, id sched.JobID, allocs ...sched.NodeAlloc) *sched.Plan {
	return &sched.Plan{Now: now, Starts: []sched.Start{{Job: id, Partition: "normal", Alloc: allocs}}}
}

func mustApply(t *testing.T, c *Cluster, p *sched.Plan) []Action {
	t.Helper()
	acts, err := c.ApplyPlan(p)
	if err != nil {
		t.Fatalf("ApplyPlan: %v", err)
	}
	return acts
}

func pendingIDs(c *Cluster) map[sched.JobID]bool {
	out := map[sched.JobID]bool{}
	for _, p := range c.Snapshot(t0).Pending {
		out[p.ID] = true
	}
	return out
}
