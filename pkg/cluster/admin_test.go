package cluster

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/sched"
)

func TestSetNextIDOnlyRaises(t *testing.T) {
	c := newTestCluster(t, 1)
	c.SetNextID(100)
	c.SetNextID(50)
	if got := c.NextID(); got != 100 {
		t.Errorf("NextID = %d, want 100", got)
	}
}

func TestUpdateKeepsWhatTheClusterLearnt(t *testing.T) {
	c := newTestCluster(t, 1)
	mustSubmit(t, c, spec(1, 2))
	res := sched.Reservation{Job: 1, Alloc: []sched.NodeAlloc{alloc("gpu01", 0)}}
	mustApply(t, c, &sched.Plan{Now: at(10),
		Priorities:   []sched.PriorityChange{{Job: 1, New: 77}},
		Reservations: []sched.ReservationChange{{Action: sched.ReserveCreate, Reservation: res}}})
	s := spec(1, 4)
	s.Limit, s.Nice = 2*time.Hour, 10
	if err := c.Update(s); err != nil {
		t.Fatalf("Update: %v", err)
	}
	p := c.Snapshot(at(10)).Pending[0]
	if p.Shape.GPUs != 4 || p.Limit != 2*time.Hour || p.Nice != 10 || p.PrevPriority != 77 || p.Eligible != t0 {
		t.Errorf("after update: %+v", p)
	}
	if len(c.Reservations()) != 0 {
		t.Error("the reservation of the old shape survived the update")
	}
}

func TestUpdateRefuses(t *testing.T) {
	tests := map[string]struct {
		spec    JobSpec
		wantErr error
	}{
		"an unknown job":                    {spec: spec(9, 1), wantErr: ErrUnknownJob},
		"a running job":                     {spec: spec(2, 1), wantErr: ErrJobState},
		"turning a job into an array":       {spec: func() JobSpec { s := spec(1, 1); s.ArrayTasks = []int{1}; return s }(), wantErr: ErrInvalid},
		"a spec with no existing partition": {spec: func() JobSpec { s := spec(1, 1); s.Partitions = []string{"x"}; return s }(), wantErr: ErrInvalid},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := newTestCluster(t, 1)
			mustSubmit(t, c, spec(1, 1))
			mustSubmit(t, c, spec(2, 1))
			mustApply(t, c, startPlan(at(0), 2, alloc("gpu01", 0)))
			if err := c.Update(tc.spec); !errors.Is(err, tc.wantErr) {
				t.Errorf("Update: err %v, want %v", err, tc.wantErr)
			}
		})
	}
}

func TestUpdateArrayWhileTasksRun(t *testing.T) {
	c := newTestCluster(t, 1)
	s := spec(10, 1)
	s.ArrayTasks, s.ArrayThrottle = []int{0, 1, 2, 3}, 2
	mustSubmit(t, c, s)
	mustApply(t, c, startPlan(at(0), 10, alloc("gpu01", 0)))
	s.ArrayTasks, s.ArrayThrottle = []int{2, 3, 9}, 1
	if err := c.Update(s); err != nil {
		t.Fatalf("Update: %v", err)
	}
	info, _ := c.Job(10)
	if info.Pending.ArrayTasks != 3 || info.Pending.ArrayRoom != 0 {
		t.Errorf("array after update: tasks %d room %d, want 3 and 0 (one task runs, throttle 1)",
			info.Pending.ArrayTasks, info.Pending.ArrayRoom)
	}
}

func TestCancelTasks(t *testing.T) {
	c := newTestCluster(t, 1)
	s := spec(10, 1)
	s.ArrayTasks = []int{0, 1, 2, 3}
	mustSubmit(t, c, s)
	if err := c.CancelTasks(10, []int{1, 3, 7}); err != nil {
		t.Fatal(err)
	}
	info, _ := c.Job(10)
	if diff := cmp.Diff([]int{0, 2}, info.Spec.ArrayTasks); diff != "" || info.Pending.ArrayTasks != 2 {
		t.Errorf("tasks left (-want +got):\n%s (count %d)", diff, info.Pending.ArrayTasks)
	}
	if err := c.CancelTasks(10, []int{0, 2}); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Job(10); ok {
		t.Error("the array's record survived the cancel of its last tasks")
	}
	mustSubmit(t, c, spec(11, 1))
	if err := c.CancelTasks(11, []int{0}); !errors.Is(err, ErrJobState) {
		t.Errorf("CancelTasks of a plain job: err %v, want ErrJobState", err)
	}
}

func TestRestoreIgnoresNodeState(t *testing.T) {
	c := newTestCluster(t, 2)
	c.SetNodeState("gpu01", sched.NodeDown)
	if err := c.Restore(spec(5, 2), at(-600), "normal", []sched.NodeAlloc{alloc("gpu01", 2, 3)}); err != nil {
		t.Fatalf("Restore: %v", err)
	}
	info, _ := c.Job(5)
	if info.State != StateRunning || info.Running.Start != at(-600) || info.Running.Limit != time.Hour {
		t.Errorf("restored job: %+v", info.Running)
	}
	if c.Nodes()[0].State != sched.NodeDown {
		t.Error("Restore changed the node's state")
	}
	if err := c.Restore(spec(6, 1), at(0), "normal", []sched.NodeAlloc{alloc("gpu01", 3)}); err == nil {
		t.Error("Restore gave GPU 3 of gpu01 twice")
	}
	if _, ok := c.Job(6); ok {
		t.Error("a refused restore left the job behind")
	}
}

// TestRestorePreemptingKeepsTheGraceWindow: a job restored inside its
// grace window stays a victim, so it is not preempted a second time.
func TestRestorePreemptingKeepsTheGraceWindow(t *testing.T) {
	c := newTestCluster(t, 1)
	if err := c.Restore(spec(5, 2), at(-600), "normal", []sched.NodeAlloc{alloc("gpu01", 2, 3)}); err != nil {
		t.Fatal(err)
	}
	if err := c.RestorePreempting(5, at(120)); err != nil {
		t.Fatalf("RestorePreempting: %v", err)
	}
	info, _ := c.Job(5)
	if !info.Running.Preempting || info.Running.PreemptDeadline != at(120) {
		t.Errorf("restored victim: %+v", info.Running)
	}
	plan := &sched.Plan{Now: at(0), Preemptions: []sched.Preemption{{Victim: 5, Beneficiary: 9, Grace: time.Minute}}}
	if _, err := c.ApplyPlan(plan); !errors.Is(err, ErrJobState) {
		t.Errorf("second preemption of a restored victim: %v, want ErrJobState", err)
	}
	if err := c.RestorePreempting(6, at(120)); err == nil {
		t.Error("RestorePreempting of an unknown job succeeded")
	}
}
