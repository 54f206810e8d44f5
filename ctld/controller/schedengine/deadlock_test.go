package schedengine

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/loamhpc/loam/ctld/controller"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// deadlockConf: two queues of the same tier over two usable nodes (two
// more drained), as pkg/sched's deadlock scenario.
const deadlockConf = `ClusterName=t
SlurmctldHost=localhost
GresTypes=gpu
NodeName=n[1-2] CPUs=64 RealMemory=64000 Gres=gpu:8
NodeName=n[3-4] CPUs=64 RealMemory=64000 Gres=gpu:8 State=DRAIN
PartitionName=normal Nodes=ALL Default=YES PriorityTier=2 ReservationDepth=2 MaxTime=UNLIMITED State=UP
PartitionName=batch Nodes=ALL PriorityTier=2 ReservationDepth=1 MaxTime=UNLIMITED State=UP
`

// TestDeadlockBrokenThroughEngine: the live system cannot be steered into
// a wait-for cycle deterministically (the scheduler avoids forming one
// within a cycle; it arises from priority changes across cycles), so the
// cycle is carried in as the cluster's state, as a controller restart or
// earlier cycles would leave it: j10 holds n1 and waits for n2, which j11
// holds while it waits for n1. One engine cycle breaks it and reports the
// drop with reason deadlock, which the controller logs and records in
// the job's history (controller.TestReservationView covers that side).
func TestDeadlockBrokenThroughEngine(t *testing.T) {
	conf, err := slurmconf.Load(fstest.MapFS{"slurm.conf": {Data: []byte(deadlockConf)}}, "slurm.conf")
	if err == nil {
		err = conf.Validate()
	}
	if err != nil {
		t.Fatal(err)
	}
	ce, err := New(conf)
	if err != nil {
		t.Fatal(err)
	}
	e := ce.(*Engine)
	now := time.Unix(100000, 0)
	big := func(part string) *controller.EngineJob {
		return &controller.EngineJob{ID: e.NextID(), Partitions: []string{part}, User: "u", Limit: 4 * time.Hour,
			Submit: now.Add(-2 * time.Hour), Req: &job.Request{Name: part, MinNodes: 2, NodesSet: true,
				GPUsPerNode: []resource.GRES{{Name: "gpu", Count: 8}}}}
	}
	j10, j11 := big("normal"), big("batch")
	for _, j := range []*controller.EngineJob{j10, j11} {
		if err := e.Submit(j); err != nil {
			t.Fatal(err)
		}
	}
	hold := func(j *controller.EngineJob, node string, created time.Time) sched.ReservationChange {
		return sched.ReservationChange{Action: sched.ReserveCreate, Reservation: sched.Reservation{Job: sched.JobID(j.ID),
			Partition: j.Partitions[0], Created: created, Alloc: []sched.NodeAlloc{{Node: node, CPUs: 1, GPUs: []int{0, 1, 2, 3, 4, 5, 6, 7}}}}}
	}
	if _, err := e.cl.ApplyPlan(&sched.Plan{Now: now, Reservations: []sched.ReservationChange{
		hold(j10, "n1", now.Add(-time.Hour)), hold(j11, "n2", now.Add(-30*time.Minute))}}); err != nil {
		t.Fatal(err)
	}
	res := e.Cycle(now)
	var dropped []controller.ResvChange
	for _, ch := range res.ResvChanges {
		if ch.Reason == controller.DropDeadlock {
			dropped = append(dropped, ch)
		}
	}
	if len(dropped) != 1 || dropped[0].JobID != j11.ID || res.Stats.Deadlocks != 1 {
		t.Errorf("deadlock drops %+v (stats %+v), want j11's (the most recent)", dropped, res.Stats)
	}
	if len(res.Launches) != 1 || res.Launches[0].JobID != j10.ID || len(res.Launches[0].Alloc) != 2 {
		t.Errorf("launches %+v, want j10 on both nodes", res.Launches)
	}
}
