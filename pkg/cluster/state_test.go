package cluster

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/sched"
)

func TestArrayTasksAndThrottle(t *testing.T) {
	c := newTestCluster(t, 2)
	s := spec(10, 1)
	s.ArrayTasks = []int{5, 3, 7}
	s.ArrayThrottle = 2
	mustSubmit(t, c, s)
	if p := c.Snapshot(t0).Pending[0]; p.ArrayTasks != 3 || p.ArrayRoom != 2 {
		t.Fatalf("array pending: tasks %d room %d, want 3 and 2", p.ArrayTasks, p.ArrayRoom)
	}
	acts := mustApply(t, c, &sched.Plan{Now: at(1), Starts: []sched.Start{
		{Job: 10, Partition: "normal", Alloc: []sched.NodeAlloc{alloc("gpu01", 0)}},
		{Job: 10, Partition: "normal", Alloc: []sched.NodeAlloc{alloc("gpu01", 1)}},
	}})
	var got [][2]int
	for _, a := range acts {
		got = append(got, [2]int{int(a.Job), a.TaskIndex})
		if a.ArrayJob != 10 {
			t.Errorf("action %d: ArrayJob %d, want 10", a.Job, a.ArrayJob)
		}
	}
	if diff := cmp.Diff([][2]int{{11, 3}, {12, 5}}, got); diff != "" {
		t.Errorf("started (job, task) (-want +got):\n%s", diff)
	}
	if p := c.Snapshot(t0).Pending[0]; p.ArrayTasks != 1 || p.ArrayRoom != 0 {
		t.Errorf("after two starts: tasks %d room %d, want 1 and 0", p.ArrayTasks, p.ArrayRoom)
	}
	if _, err := c.ApplyPlan(startPlan(at(2), 10, alloc("gpu02", 0))); !errors.Is(err, ErrInvalid) {
		t.Errorf("start past the throttle: err %v, want ErrInvalid", err)
	}
	if err := c.End(11, at(3)); err != nil {
		t.Fatal(err)
	}
	acts = mustApply(t, c, startPlan(at(4), 10, alloc("gpu02", 0)))
	if acts[0].Job != 10 || acts[0].TaskIndex != 7 {
		t.Errorf("last task: job %d task %d, want it to keep the array id 10 and be task 7", acts[0].Job, acts[0].TaskIndex)
	}
	if n, _ := c.Counts(); n != 0 {
		t.Errorf("%d pending records left, want 0", n)
	}
}

func TestRequeuedTaskCountsAgainstThrottle(t *testing.T) {
	c := newTestCluster(t, 1)
	s := spec(10, 1)
	s.ArrayTasks = []int{0, 1, 2}
	s.ArrayThrottle = 1
	mustSubmit(t, c, s)
	mustApply(t, c, startPlan(at(0), 10, alloc("gpu01", 0)))
	if err := c.Requeue(11, at(10), 10*time.Second); err != nil {
		t.Fatal(err)
	}
	info, _ := c.Job(11)
	if info.State != StatePending || info.ArrayJob != 10 || info.TaskIndex != 0 || info.Pending.ArrayRoom != 1 {
		t.Fatalf("requeued task: %+v pending %+v", info, info.Pending)
	}
	mustApply(t, c, startPlan(at(20), 11, alloc("gpu01", 0)))
	if p, _ := c.Job(10); p.Pending.ArrayRoom != 0 {
		t.Errorf("array room %d after the requeued task restarted, want 0", p.Pending.ArrayRoom)
	}
}

func TestReservationsAndCooldown(t *testing.T) {
	c := newTestCluster(t, 2)
	mustSubmit(t, c, spec(1, 16))
	res := sched.Reservation{Job: 1, Created: at(0), PlannedStart: at(3600), Alloc: []sched.NodeAlloc{alloc("gpu01", 0, 1)}}
	mustApply(t, c, &sched.Plan{Now: at(0), Reservations: []sched.ReservationChange{{Action: sched.ReserveCreate, Reservation: res}}})
	res.Alloc = append(res.Alloc, alloc("gpu02", 0))
	mustApply(t, c, &sched.Plan{Now: at(60), Reservations: []sched.ReservationChange{{Action: sched.ReserveExtend, Reservation: res}}})
	if diff := cmp.Diff([]sched.Reservation{res}, c.Snapshot(at(60)).Reservations); diff != "" {
		t.Errorf("reservations (-want +got):\n%s", diff)
	}
	mustApply(t, c, &sched.Plan{Now: at(3600), Reservations: []sched.ReservationChange{
		{Action: sched.ReserveDrop, Reservation: sched.Reservation{Job: 1}, Reason: sched.DropTimeout}}})
	snap := c.Snapshot(at(3600))
	if len(snap.Reservations) != 0 {
		t.Errorf("reservations after drop: %+v", snap.Reservations)
	}
	if got := snap.Pending[0].ReserveAfter; got != at(3600+600) {
		t.Errorf("ReserveAfter = %v, want the 10 min cool-down", got)
	}
	// A drop that names the cool-down's end wins over the partition's.
	mustApply(t, c, &sched.Plan{Now: at(5000), Reservations: []sched.ReservationChange{{Action: sched.ReserveCreate, Reservation: res}}})
	mustApply(t, c, &sched.Plan{Now: at(6000), Reservations: []sched.ReservationChange{
		{Action: sched.ReserveDrop, Reservation: sched.Reservation{Job: 1}, Reason: sched.DropTimeout, ReserveAfter: at(9999)}}})
	if got := c.Snapshot(at(6000)).Pending[0].ReserveAfter; got != at(9999) {
		t.Errorf("ReserveAfter = %v, want the plan's 9999s", got)
	}
}

func TestReservationGoesWithItsJob(t *testing.T) {
	c := newTestCluster(t, 1)
	mustSubmit(t, c, spec(1, 1))
	mustSubmit(t, c, spec(2, 1))
	create := func(id sched.JobID) sched.ReservationChange {
		return sched.ReservationChange{Action: sched.ReserveCreate, Reservation: sched.Reservation{Job: id, Alloc: []sched.NodeAlloc{alloc("gpu01", 0)}}}
	}
	mustApply(t, c, &sched.Plan{Now: at(0), Reservations: []sched.ReservationChange{create(2), create(1)}})
	if err := c.Cancel(2); err != nil {
		t.Fatal(err)
	}
	mustApply(t, c, startPlan(at(1), 1, alloc("gpu01", 0)))
	if r := c.Reservations(); len(r) != 0 {
		t.Errorf("reservations left: %+v", r)
	}
	if _, err := c.ApplyPlan(&sched.Plan{Now: at(2), Reservations: []sched.ReservationChange{create(1)}}); !errors.Is(err, ErrJobState) {
		t.Errorf("reserving for a running job: err %v, want ErrJobState", err)
	}
}

func TestPlanPrioritiesAndReasonsAreKept(t *testing.T) {
	c := newTestCluster(t, 1)
	mustSubmit(t, c, spec(1, 1))
	mustApply(t, c, &sched.Plan{Now: at(0),
		Priorities: []sched.PriorityChange{{Job: 1, New: 1234}},
		Pending:    []sched.Pending{{Job: 1, Reason: "Resources", EstStart: at(99), Position: 1, Priority: 1234}}})
	info, _ := c.Job(1)
	if info.Pending.PrevPriority != 1234 || info.Last.Reason != "Resources" || info.Last.EstStart != at(99) {
		t.Errorf("job after plan: prev %d last %+v", info.Pending.PrevPriority, info.Last)
	}
}

func TestNodeDownListsItsJobs(t *testing.T) {
	c := newTestCluster(t, 2)
	mustSubmit(t, c, spec(2, 1))
	mustSubmit(t, c, spec(1, 2))
	mustApply(t, c, startPlan(at(0), 2, alloc("gpu02", 0)))
	mustApply(t, c, startPlan(at(0), 1, alloc("gpu01", 0), alloc("gpu02", 1)))
	ids, err := c.SetNodeState("gpu02", sched.NodeDown)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]sched.JobID{1, 2}, ids); diff != "" {
		t.Errorf("jobs on gpu02 (-want +got):\n%s", diff)
	}
	if c.Nodes()[1].State != sched.NodeDown {
		t.Errorf("gpu02 state = %v", c.Nodes()[1].State)
	}
	if _, err := c.SetNodeState("nosuch", sched.NodeUp); !errors.Is(err, ErrUnknownNode) {
		t.Errorf("unknown node: err %v", err)
	}
}

func TestReconfigure(t *testing.T) {
	c := newTestCluster(t, 2)
	mustSubmit(t, c, spec(1, 2))
	mustApply(t, c, startPlan(at(0), 1, alloc("gpu02", 6, 7)))
	small := testNodes(2)
	small[1].GPUs = 4
	if err := c.Reconfigure(testConfig(), small); !errors.Is(err, ErrInvalid) {
		t.Errorf("shrinking a busy node: err %v, want ErrInvalid", err)
	}
	if err := c.Reconfigure(testConfig(), testNodes(1)); !errors.Is(err, ErrInvalid) {
		t.Errorf("removing a busy node: err %v, want ErrInvalid", err)
	}
	bigger := append(testNodes(3), sched.Node{Name: "cpu01", CPUs: 32, MemMB: 1000})
	if err := c.Reconfigure(testConfig(), bigger); err != nil {
		t.Fatalf("growing: %v", err)
	}
	if u, _ := c.Used("gpu02"); u.GPUs != 2 {
		t.Errorf("gpu02 lost its use across reconfigure: %+v", u)
	}
	if err := c.End(1, at(5)); err != nil {
		t.Fatal(err)
	}
	if u, _ := c.Used("gpu02"); u != (NodeUse{}) {
		t.Errorf("gpu02 after end: %+v", u)
	}
}

func TestUsageDecaysAndAccrues(t *testing.T) {
	c := newTestCluster(t, 1)
	c.Advance(at(0))
	mustSubmit(t, c, spec(1, 2))
	mustApply(t, c, startPlan(at(0), 1, alloc("gpu01", 0, 1)))
	c.Advance(at(3600))
	// 2 GPUs for one half-life: 2 * h/ln2 * (1 - 1/2) GPU-seconds.
	want := 2 * 3600 / math.Ln2 * 0.5
	if got := usageOf(c, "a", ""); math.Abs(got-want) > 1e-6 {
		t.Errorf("tenant usage after 1h = %f, want %f", got, want)
	}
	if got := usageOf(c, "a", "alice"); math.Abs(got-want) > 1e-6 {
		t.Errorf("user usage = %f, want %f", got, want)
	}
	if err := c.End(1, at(7200)); err != nil {
		t.Fatal(err)
	}
	c.Advance(at(7200))
	// Ending between Advances charges the same as running to the Advance.
	want = want*0.5 + want
	if got := usageOf(c, "a", ""); math.Abs(got-want) > 1e-6 {
		t.Errorf("tenant usage after 2h = %f, want %f", got, want)
	}
	c.Advance(at(7200 + 3600))
	if got := usageOf(c, "a", ""); math.Abs(got-want/2) > 1e-6 {
		t.Errorf("idle hour: usage %f, want half of %f", got, want)
	}
	if got := usageOf(c, "b", ""); got != 0 {
		t.Errorf("tenant b usage %f, want 0", got)
	}
}

func usageOf(c *Cluster, tenant, user string) float64 {
	for _, u := range c.Usage() {
		if u.Tenant == tenant && u.User == user {
			return u.GPUSec
		}
	}
	return 0
}
