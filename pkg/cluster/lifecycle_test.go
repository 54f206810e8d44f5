package cluster

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/sched"
)

func TestStartAssumesResources(t *testing.T) {
	c := newTestCluster(t, 2)
	mustSubmit(t, c, spec(1, 4))
	acts := mustApply(t, c, startPlan(at(10), 1, alloc("gpu01", 0, 1, 2, 3)))

	want := []Action{{Kind: ActLaunch, Job: 1, Partition: "normal", Alloc: []sched.NodeAlloc{alloc("gpu01", 0, 1, 2, 3)},
		Limit: time.Hour, TaskIndex: -1}}
	if diff := cmp.Diff(want, acts); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	snap := c.Snapshot(at(10))
	if len(snap.Pending) != 0 || len(snap.Running) != 1 {
		t.Fatalf("pending %d running %d, want 0 and 1", len(snap.Pending), len(snap.Running))
	}
	if got := snap.Running[0]; got.Start != at(10) || got.Tenant != "a" || !got.Requeue {
		t.Errorf("running = %+v", got)
	}
	if u, _ := c.Used("gpu01"); u != (NodeUse{CPUs: 4, MemMB: 4000, GPUs: 4, Jobs: 1}) {
		t.Errorf("gpu01 used = %+v", u)
	}
	if err := c.End(1, at(100)); err != nil {
		t.Fatalf("End: %v", err)
	}
	if u, _ := c.Used("gpu01"); u != (NodeUse{}) {
		t.Errorf("gpu01 used after end = %+v, want nothing", u)
	}
	if _, ok := c.Job(1); ok {
		t.Error("job 1 still known after End")
	}
}

func TestDefaultLimitFromPartition(t *testing.T) {
	c := newTestCluster(t, 1)
	s := spec(1, 1)
	s.Limit = 0
	mustSubmit(t, c, s)
	acts := mustApply(t, c, startPlan(at(0), 1, alloc("gpu01", 0)))
	if acts[0].Limit != time.Hour {
		t.Errorf("limit = %v, want the partition DefaultTime 1h", acts[0].Limit)
	}
}

func TestApplyPlanRechecksStarts(t *testing.T) {
	tests := map[string]struct {
		setup   func(t *testing.T, c *Cluster)
		start   sched.Start
		wantErr error
	}{
		"a job cancelled after the snapshot is not started": {
			setup:   func(t *testing.T, c *Cluster) { c.Cancel(1) },
			start:   sched.Start{Job: 1, Alloc: []sched.NodeAlloc{alloc("gpu01", 0)}},
			wantErr: ErrUnknownJob,
		},
		"a GPU already in use is refused": {
			setup: func(t *testing.T, c *Cluster) {
				mustSubmit(t, c, spec(2, 1))
				mustApply(t, c, startPlan(at(0), 2, alloc("gpu01", 3)))
			},
			start: sched.Start{Job: 1, Alloc: []sched.NodeAlloc{alloc("gpu01", 3)}},
		},
		"a GPU index past the node's GPUs is refused": {
			start: sched.Start{Job: 1, Alloc: []sched.NodeAlloc{alloc("gpu01", 8)}},
		},
		"the same GPU twice in one allocation is refused": {
			start: sched.Start{Job: 1, Alloc: []sched.NodeAlloc{alloc("gpu01", 2, 2)}},
		},
		"the same node twice is refused": {
			start: sched.Start{Job: 1, Alloc: []sched.NodeAlloc{alloc("gpu01", 0), alloc("gpu01", 1)}},
		},
		"more CPUs than the node has are refused": {
			start: sched.Start{Job: 1, Alloc: []sched.NodeAlloc{{Node: "gpu01", CPUs: 65}}},
		},
		"a drained node takes nothing new": {
			setup: func(t *testing.T, c *Cluster) {
				c.SetNodeState("gpu01", sched.NodeDrain)
			},
			start: sched.Start{Job: 1, Alloc: []sched.NodeAlloc{alloc("gpu01", 0)}},
		},
		"an unknown node is refused": {
			start:   sched.Start{Job: 1, Alloc: []sched.NodeAlloc{alloc("gpu99", 0)}},
			wantErr: ErrUnknownNode,
		},
		"a held job is not started": {
			setup:   func(t *testing.T, c *Cluster) { c.Hold(1, sched.HeldUser) },
			start:   sched.Start{Job: 1, Alloc: []sched.NodeAlloc{alloc("gpu01", 0)}},
			wantErr: ErrJobState,
		},
		"a running job is not started twice": {
			setup: func(t *testing.T, c *Cluster) {
				mustApply(t, c, startPlan(at(0), 1, alloc("gpu02", 0)))
			},
			start:   sched.Start{Job: 1, Alloc: []sched.NodeAlloc{alloc("gpu01", 0)}},
			wantErr: ErrJobState,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := newTestCluster(t, 2)
			mustSubmit(t, c, spec(1, 1))
			if tc.setup != nil {
				tc.setup(t, c)
			}
			before, _ := c.Used("gpu01")
			acts, err := c.ApplyPlan(&sched.Plan{Now: at(5), Starts: []sched.Start{tc.start}})
			if err == nil || len(acts) != 0 {
				t.Fatalf("ApplyPlan = %v, %v; want no action and an error", acts, err)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Errorf("error %v, want %v", err, tc.wantErr)
			}
			if after, _ := c.Used("gpu01"); after != before {
				t.Errorf("gpu01 use changed from %+v to %+v", before, after)
			}
		})
	}
}

func TestPreemptThenRequeue(t *testing.T) {
	c := newTestCluster(t, 1)
	mustSubmit(t, c, spec(1, 8))
	mustApply(t, c, &sched.Plan{Now: at(0),
		Priorities: []sched.PriorityChange{{Job: 1, Old: 0, New: 500}},
		Starts:     []sched.Start{{Job: 1, Partition: "normal", Alloc: []sched.NodeAlloc{alloc("gpu01", 0, 1, 2, 3, 4, 5, 6, 7)}}}})
	acts := mustApply(t, c, &sched.Plan{Now: at(600), Preemptions: []sched.Preemption{
		{Victim: 1, Beneficiary: 9, Reason: sched.PreemptUrgent, Mode: sched.PreemptRequeue, Grace: time.Minute}}})
	want := []Action{{Kind: ActPreempt, Job: 1, Beneficiary: 9, Reason: sched.PreemptUrgent,
		Mode: sched.PreemptRequeue, Grace: time.Minute, Deadline: at(660), TaskIndex: -1}}
	if diff := cmp.Diff(want, acts); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	run := c.Snapshot(at(600)).Running[0]
	if !run.Preempting || run.PreemptDeadline != at(660) || run.Priority != 500 {
		t.Errorf("victim = %+v, want preempting until 660s with priority 500", run)
	}
	if _, err := c.ApplyPlan(&sched.Plan{Now: at(610), Preemptions: []sched.Preemption{{Victim: 1}}}); !errors.Is(err, ErrJobState) {
		t.Errorf("second preemption: err %v, want ErrJobState", err)
	}

	if err := c.Requeue(1, at(660), 660*time.Second); err != nil {
		t.Fatalf("Requeue: %v", err)
	}
	p := c.Snapshot(at(660)).Pending
	if len(p) != 1 || p[0].Restarts != 1 || p[0].LostRun != 660*time.Second || p[0].PrevPriority != 500 || p[0].Submit != t0 {
		t.Fatalf("pending after requeue = %+v", p)
	}
	if u, _ := c.Used("gpu01"); u.GPUs != 0 {
		t.Errorf("gpu01 still holds %d GPUs after requeue", u.GPUs)
	}
}

func TestForgetUndoesStart(t *testing.T) {
	c := newTestCluster(t, 1)
	mustSubmit(t, c, spec(1, 2))
	mustApply(t, c, startPlan(at(0), 1, alloc("gpu01", 0, 1)))
	if err := c.Forget(1, at(0)); err != nil {
		t.Fatalf("Forget: %v", err)
	}
	info, _ := c.Job(1)
	if info.State != StatePending || info.Pending.Restarts != 0 || info.Pending.LostRun != 0 {
		t.Errorf("after Forget: %+v", info.Pending)
	}
	if u, _ := c.Used("gpu01"); u.GPUs != 0 {
		t.Errorf("gpu01 holds %d GPUs after Forget", u.GPUs)
	}
	if err := c.Forget(1, at(0)); !errors.Is(err, ErrJobState) {
		t.Errorf("Forget of a pending job: err %v, want ErrJobState", err)
	}
}

func TestHoldRelease(t *testing.T) {
	c := newTestCluster(t, 1)
	s := spec(1, 1)
	s.Hold = sched.HeldDependency
	mustSubmit(t, c, s)
	if p := c.Snapshot(t0).Pending[0]; !p.Eligible.IsZero() || p.Hold != sched.HeldDependency {
		t.Fatalf("dependent job: eligible %v hold %v", p.Eligible, p.Hold)
	}
	if err := c.Release(1, at(300)); err != nil {
		t.Fatal(err)
	}
	if p := c.Snapshot(t0).Pending[0]; p.Eligible != at(300) || p.Hold != sched.NotHeld {
		t.Errorf("after release: eligible %v hold %v, want 300s and not held", p.Eligible, p.Hold)
	}
	if err := c.Hold(1, sched.HeldUser); err != nil {
		t.Fatal(err)
	}
	if err := c.Release(1, at(900)); err != nil {
		t.Fatal(err)
	}
	if p := c.Snapshot(t0).Pending[0]; p.Eligible != at(300) {
		t.Errorf("user hold and release moved eligible to %v, want it kept at 300s", p.Eligible)
	}
}

func TestSubmitRefuses(t *testing.T) {
	tests := map[string]JobSpec{
		"id zero":              {Partitions: []string{"normal"}},
		"a duplicate id":       spec(1, 1),
		"no known partition":   {ID: 2, Partitions: []string{"nosuch"}},
		"negative GPUs":        {ID: 3, Partitions: []string{"normal"}, Shape: sched.Shape{GPUs: -1}},
		"an array of no tasks": {ID: 4, Partitions: []string{"normal"}, ArrayTasks: []int{}},
	}
	for name, s := range tests {
		t.Run(name, func(t *testing.T) {
			c := newTestCluster(t, 1)
			mustSubmit(t, c, spec(1, 1))
			if err := c.Submit(s); !errors.Is(err, ErrInvalid) {
				t.Errorf("Submit: err %v, want ErrInvalid", err)
			}
		})
	}
}

func TestNextIDStaysAboveSubmitted(t *testing.T) {
	c := newTestCluster(t, 1)
	mustSubmit(t, c, spec(41, 1))
	if got := c.NextID(); got != 42 {
		t.Errorf("NextID = %d, want 42", got)
	}
	if got := c.NextID(); got != 43 {
		t.Errorf("second NextID = %d, want 43", got)
	}
}

func TestSwapRemoveKeepsIndexes(t *testing.T) {
	c := newTestCluster(t, 4)
	for id := sched.JobID(1); id <= 5; id++ {
		mustSubmit(t, c, spec(id, 1))
	}
	if err := c.Cancel(2); err != nil {
		t.Fatal(err)
	}
	mustApply(t, c, startPlan(at(0), 5, alloc("gpu01", 0)))
	mustApply(t, c, startPlan(at(0), 1, alloc("gpu02", 0)))
	if err := c.Hold(4, sched.HeldAdmin); err != nil {
		t.Fatal(err)
	}
	if err := c.End(5, at(1)); err != nil {
		t.Fatal(err)
	}
	for _, id := range []sched.JobID{1, 3, 4} {
		info, ok := c.Job(id)
		if !ok {
			t.Fatalf("job %d lost", id)
		}
		var got sched.JobID
		if info.Pending != nil {
			got = info.Pending.ID
		} else {
			got = info.Running.ID
		}
		if got != id {
			t.Errorf("Job(%d) returned the record of job %d", id, got)
		}
	}
	if diff := cmp.Diff(map[sched.JobID]bool{3: true, 4: true}, pendingIDs(c)); diff != "" {
		t.Errorf("pending (-want +got):\n%s", diff)
	}
}
