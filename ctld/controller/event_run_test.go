package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestEventOfEarlierRunIgnored: a requeued job runs again on the node it
// ran on; an end or usage event of its first run that reaches the
// controller late (the node daemon was cut off when the job was requeued)
// neither ends nor charges the second run. The second run's own end does.
func TestEventOfEarlierRunIgnored(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { yes := true; r.Requeue = &yes }))
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	ids := []string{fmt.Sprint(id)}
	if rs := results(t, h, 0, api.PathRequeue, api.RequeueRequest{JobIDs: ids}); firstErr(rs) != "" {
		t.Fatalf("requeue: %+v", rs)
	}
	h.waitState(ids[0], job.Pending)
	h.pastRequeueDelay() // requeue_delay_test.go
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	if j := h.job(ids[0]); j.JobState != job.Running || j.Restarts != 1 {
		t.Fatalf("second run: %s restarts=%d, want RUNNING restarts=1", j.JobState, j.Restarts)
	}

	first, second := 0, 1
	stale := api.JobEvent{Seq: 1 << 40, JobID: id, Run: &first, Kind: api.EventEnded, ExitCode: job.ExitCode{Status: 3},
		Usage: &api.JobUsage{Batch: &api.NodeUsage{Node: "n01", MemPeak: 1 << 30}}}
	h.sendEvents("n01", stale)
	if j := h.job(ids[0]); j.JobState != job.Running {
		t.Fatalf("after the first run's late end: %s, want RUNNING", j.JobState)
	}
	h.c.mu.RLock()
	charged := h.c.jobs[id].St.BatchUsage
	h.c.mu.RUnlock()
	if charged != nil {
		t.Errorf("the first run's usage was charged to the second: %+v", charged)
	}

	own := api.JobEvent{Seq: 1<<40 + 1, JobID: id, Run: &second, Kind: api.EventEnded}
	h.sendEvents("n01", own)
	if j := h.job(ids[0]); j.JobState != job.Completed {
		t.Errorf("after the second run's end: %s, want COMPLETED", j.JobState)
	}
}
