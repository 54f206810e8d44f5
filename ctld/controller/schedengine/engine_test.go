package schedengine

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/loamhpc/loam/ctld/controller"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

const conf = `ClusterName=t
SlurmctldHost=localhost
DefMemPerCPU=100
GresTypes=gpu
NodeName=n[01-02] CPUs=8 RealMemory=16000 Gres=gpu:4
PartitionName=normal Nodes=ALL Default=YES MaxTime=UNLIMITED State=UP
`

func newEngine(t *testing.T) *Engine {
	t.Helper()
	return newEngineFS(t, fstest.MapFS{"slurm.conf": {Data: []byte(conf)}})
}

// newEngineFS builds an engine from the configuration files in fsys.
func newEngineFS(t *testing.T, fsys fstest.MapFS) *Engine {
	t.Helper()
	c, err := slurmconf.Load(fsys, "slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	e, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return e.(*Engine)
}

func ej(e *Engine, mods ...func(*controller.EngineJob)) *controller.EngineJob {
	j := &controller.EngineJob{ID: e.NextID(), Req: &job.Request{Name: "x"}, Partitions: []string{"normal"},
		Tenant: "", User: "u", Submit: time.Unix(1000, 0), Requeue: true}
	for _, m := range mods {
		m(j)
	}
	return j
}

func TestCycleStartsJobsWithGPUs(t *testing.T) {
	e := newEngine(t)
	now := time.Unix(2000, 0)
	j := ej(e, func(j *controller.EngineJob) { j.Req.GRES = []resource.GRES{{Name: "gpu", Count: 2}} })
	if err := e.Submit(j); err != nil {
		t.Fatal(err)
	}
	held := ej(e, func(j *controller.EngineJob) { j.Hold = controller.HeldUser })
	if err := e.Submit(held); err != nil {
		t.Fatal(err)
	}
	res := e.Cycle(now)
	if len(res.Launches) != 1 || res.Launches[0].JobID != j.ID || len(res.Launches[0].Alloc) != 1 || len(res.Launches[0].Alloc[0].GPUs) != 2 {
		t.Fatalf("launches %+v", res.Launches)
	}
	var heldInfo *controller.PendingInfo
	for i := range res.Pending {
		if res.Pending[i].JobID == held.ID {
			heldInfo = &res.Pending[i]
		}
	}
	if heldInfo == nil || heldInfo.Reason != job.ReasonJobHeldUser {
		t.Errorf("held job pending info %+v", heldInfo)
	}
	if err := e.End(j.ID, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
}

func TestArrayTasksGetNewIDs(t *testing.T) {
	e := newEngine(t)
	arr := ej(e, func(j *controller.EngineJob) { j.ArrayTasks = []int{0, 1, 2}; j.Req.CPUsPerTask = 8 })
	if err := e.Submit(arr); err != nil {
		t.Fatal(err)
	}
	res := e.Cycle(time.Unix(2000, 0))
	if len(res.Launches) != 2 {
		t.Fatalf("launches %+v", res.Launches)
	}
	for _, l := range res.Launches {
		if l.ArrayJobID != arr.ID || l.JobID == arr.ID {
			t.Errorf("task launch %+v: want a new id under array %d", l, arr.ID)
		}
	}
}

// TestArrayChangesWhileTasksRun: the pending tasks of an array can be
// cancelled or changed while others run; the running tasks go on.
func TestArrayChangesWhileTasksRun(t *testing.T) {
	tests := map[string]struct {
		change     func(e *Engine, arr *controller.EngineJob) error
		wantLaunch int // pending tasks started once the running ones end
	}{
		"cancel some pending tasks": {change: func(e *Engine, arr *controller.EngineJob) error {
			return e.CancelTasks(arr.ID, []int{2})
		}, wantLaunch: 1},
		"cancel every pending task": {change: func(e *Engine, arr *controller.EngineJob) error {
			return e.CancelTasks(arr.ID, []int{2, 3})
		}, wantLaunch: 0},
		"update the pending record": {change: func(e *Engine, arr *controller.EngineJob) error {
			upd := *arr
			upd.ArrayTasks, upd.Limit = []int{2, 3}, 30*time.Minute
			return e.Update(&upd)
		}, wantLaunch: 2},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			e := newEngine(t)
			arr := ej(e, func(j *controller.EngineJob) { j.ArrayTasks = []int{0, 1, 2, 3}; j.Req.CPUsPerTask = 8 })
			if err := e.Submit(arr); err != nil {
				t.Fatal(err)
			}
			running := e.Cycle(time.Unix(2000, 0)).Launches
			if len(running) != 2 {
				t.Fatalf("launches %+v, want two tasks on the two nodes", running)
			}
			if err := tc.change(e, arr); err != nil {
				t.Fatalf("change while tasks run: %v", err)
			}
			for _, l := range running {
				if err := e.End(l.JobID, time.Unix(2100, 0)); err != nil {
					t.Fatalf("running task %d: %v", l.JobID, err)
				}
			}
			if got := len(e.Cycle(time.Unix(2200, 0)).Launches); got != tc.wantLaunch {
				t.Errorf("after the running tasks ended, %d tasks started, want %d", got, tc.wantLaunch)
			}
		})
	}
}

func TestEstimateDoesNotKeepTheJob(t *testing.T) {
	e := newEngine(t)
	j := ej(e)
	est, err := e.Estimate(j, time.Unix(2000, 0))
	if err != nil || est.Start.IsZero() || est.Partition != "normal" || len(est.Alloc) != 1 {
		t.Fatalf("estimate %+v %v", est, err)
	}
	if res := e.Cycle(time.Unix(2001, 0)); len(res.Launches) != 0 || len(res.Pending) != 0 {
		t.Errorf("estimated job stayed: %+v", res)
	}
}

func TestRestoreHoldsResources(t *testing.T) {
	e := newEngine(t)
	run := ej(e)
	alloc := []api.NodeAllocation{{Node: "n01", CPUs: 8, Memory: 800}}
	e.SetNodeState("n01", controller.NodeDown) // not registered yet
	if err := e.Restore(run, time.Unix(1500, 0), "normal", alloc, time.Time{}); err != nil {
		t.Fatal(err)
	}
	e.SetNodeState("n01", controller.NodeUp)
	e.SetNodeState("n02", controller.NodeDown)
	if err := e.Submit(ej(e, func(j *controller.EngineJob) { j.Req.CPUsPerTask = 2 })); err != nil {
		t.Fatal(err)
	}
	if res := e.Cycle(time.Unix(2000, 0)); len(res.Launches) != 0 {
		t.Errorf("a job started on a node the restored job fills: %+v", res.Launches)
	}
	if err := e.End(run.ID, time.Unix(2100, 0)); err != nil {
		t.Fatal(err)
	}
	if res := e.Cycle(time.Unix(2200, 0)); len(res.Launches) != 1 {
		t.Errorf("after the restored job ended: %+v", res.Launches)
	}
}

func TestSetNextID(t *testing.T) {
	e := newEngine(t)
	e.SetNextID(500)
	if id := e.NextID(); id != 500 {
		t.Errorf("NextID after SetNextID(500) = %d", id)
	}
}
