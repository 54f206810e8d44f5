//go:build integration

package test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// resvConf is one queue over 4 nodes of 8 GPUs; %s sets its reservation
// keys.
const resvConf = `PartitionName=normal Nodes=ALL Default=YES QueueClass=normal ReservationDepth=2 %s MaxTime=UNLIMITED DefaultTime=00:10:00 State=UP
`

// fillCluster starts four gated jobs holding 28 of the 32 GPUs (4 idle on
// one node) with time limit lim, and waits until they run.
func (lc *liveCluster) fillCluster(lim time.Duration) []uint32 {
	lc.t.Helper()
	var ids []uint32
	for i, g := range []int64{4, 8, 8, 8} {
		ids = append(ids, lc.submit(lc.script(gated(fmt.Sprint("f", i)), withGPUs(g), withLimit(lim))))
	}
	for _, id := range ids {
		lc.waitState(id, job.Running)
	}
	return ids
}

func (lc *liveCluster) openGates(names ...string) {
	for _, n := range names {
		lc.touch("gate-" + n)
	}
}

// bigJob asks for all 32 GPUs: 4 nodes of 8.
func (lc *liveCluster) bigJob(lim time.Duration) uint32 {
	return lc.submit(lc.script(gated("big"), withGPUs(8), withLimit(lim), func(r *job.Request) {
		r.MinNodes, r.NodesSet = 4, true
	}))
}

// TestLiveReservationBackfill: a 32-GPU job blocked behind running jobs
// holds a reservation (ResourcesReserved, scontrol show reservation); a
// small job that ends before the planned start backfills on the held
// GPUs, a small job that would not waits; when the cluster frees, the big
// job starts before the later small job.
func TestLiveReservationBackfill(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 4, GPUs: 8, CPUs: 16, Extra: fmt.Sprintf(resvConf, "ReservationTimeout=UNLIMITED")}, "")
	lc.fillCluster(3 * time.Minute)
	big := lc.bigJob(time.Minute)
	lc.waitJob(big, "holding a reservation", func(j api.Job) bool { return j.StateReason == "ResourcesReserved" })
	resv, err := lc.cl.Reservations(context.Background(), &api.ResvQuery{})
	if err != nil || len(resv.Reservations) != 1 || resv.Reservations[0].Name != fmt.Sprint("loam_", big) || resv.Reservations[0].NodeCount != 4 {
		t.Fatalf("reservations %+v (%v)", resv, err)
	}

	short := lc.submit(lc.script(gated("short"), withGPUs(1), withLimit(time.Minute)))
	long := lc.submit(lc.script("true", withGPUs(1), withLimit(10*time.Minute)))
	lc.waitState(short, job.Running)
	if j := lc.job(long); j.JobState != job.Pending {
		t.Fatalf("the small job that would delay the reservation is %s", j.JobState)
	}

	lc.openGates("short", "f0", "f1", "f2", "f3")
	b := lc.waitState(big, job.Running)
	if j := lc.job(long); j.JobState != job.Pending {
		t.Errorf("the later small job is %s while the big job runs", j.JobState)
	}
	lc.openGates("big")
	l := lc.waitState(long, job.Completed)
	if l.StartTime < b.StartTime {
		t.Errorf("the later small job started at %d, before the big job at %d", l.StartTime, b.StartTime)
	}
	if kinds := strings.Join(lc.events(big), " "); !strings.Contains(kinds, "resv_create") {
		t.Errorf("big job's log: %s", kinds)
	}
}

// timeoutConf adds an urgent queue above normal; normal's reservations
// time out after 5 s and may not be taken again for an hour.
const timeoutConf = `PartitionName=normal Nodes=ALL Default=YES PriorityTier=1 QueueClass=normal PreemptMode=OFF ReservationDepth=1 ReservationTimeout=00:00:05 ReservationCooldown=01:00:00 MaxTime=UNLIMITED DefaultTime=00:10:00 State=UP
PartitionName=urgent Nodes=ALL PriorityTier=10 QueueClass=urgent MaxTime=UNLIMITED DefaultTime=00:10:00 State=UP
`

// TestLiveReservationTimeout: a reservation stops making progress (an
// urgent job takes GPUs it held for 30 minutes, so its planned start
// slips past its promise); after the queue's ReservationTimeout it is
// dropped (logged in the job's history, gone from scontrol show
// reservation), and the GPUs it held go to a job that could not use them
// before.
func TestLiveReservationTimeout(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 4, GPUs: 8, CPUs: 16, Extra: timeoutConf}, "")
	var fill []uint32
	for i, g := range []int64{4, 8, 8} { // n1 half free, n4 free: 12 idle GPUs
		fill = append(fill, lc.submit(lc.script(gated(fmt.Sprint("f", i)), withGPUs(g), withLimit(2*time.Minute))))
	}
	for _, id := range fill {
		lc.waitState(id, job.Running)
	}
	big := lc.bigJob(time.Minute)
	lc.waitJob(big, "holding a reservation", func(j api.Job) bool { return j.StateReason == "ResourcesReserved" })
	small := lc.submit(lc.script("true", withGPUs(4), withLimit(30*time.Minute)))
	if j := lc.job(small); j.JobState != job.Pending {
		t.Fatalf("the small job is %s while the reservation holds the idle GPUs", j.JobState)
	}
	urg := lc.submit(lc.script(gated("urg"), withGPUs(4), withLimit(30*time.Minute), inPartition("urgent")))
	lc.waitState(urg, job.Running)
	lc.waitState(small, job.Completed)
	lc.eventually("the reservation's drop in the job's log", func() error {
		if log := strings.Join(lc.events(big), " "); !strings.Contains(log, `"reason":"timeout"`) {
			return fmt.Errorf("log %s", log)
		}
		return nil
	})
	resv, err := lc.cl.Reservations(context.Background(), &api.ResvQuery{})
	if err != nil || len(resv.Reservations) != 0 {
		t.Errorf("reservations after the timeout %+v (%v)", resv.Reservations, err)
	}
	if j := lc.job(big); j.StateReason == "ResourcesReserved" {
		t.Errorf("the big job holds a reservation again during its cool-down")
	}
	lc.openGates("f0", "f1", "f2", "urg", "big")
	lc.waitState(big, job.Completed)
}
