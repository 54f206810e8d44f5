package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// acctRuns lists job id's records as sacct -j id [-D] gets them: state,
// restarts, elapsed and each step's id and state.
func (h *harness) acctRuns(id uint32, dups bool) []string {
	h.t.Helper()
	var out api.AcctResponse
	q := api.AcctQuery{JobIDs: []string{fmt.Sprint(id)}, Duplicates: dups}
	if err := h.call(0, api.PathAccounting, q, &out); err != nil {
		h.t.Fatal(err)
	}
	var lines []string
	for _, j := range out.Jobs {
		line := fmt.Sprintf("%d %s %s restarts=%d elapsed=%d", j.JobID, j.State, j.ExitCode, j.Restarts, j.Elapsed)
		for _, s := range j.Steps {
			line += fmt.Sprintf(" %s:%s:%s", s.StepID, s.State, s.ExitCode)
		}
		lines = append(lines, line)
	}
	return lines
}

// TestAcctRunsRequeue: sacct -D lists every run of a requeued job, the
// ended ones REQUEUED (as slurmctld records an scontrol requeue) with
// their own elapsed time, exit 0:0 and a batch step cancelled by the
// signal that ended it; without -D the job
// id has one record, its latest run. A finished job requeued by hand keeps
// its run too.
func TestAcctRunsRequeue(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { yes := true; r.Requeue = &yes }))
	sid := []string{fmt.Sprint(id)}
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	h.tick(time.Minute)
	if rs := results(t, h, 0, api.PathRequeue, api.RequeueRequest{JobIDs: sid}); firstErr(rs) != "" {
		t.Fatalf("requeue: %+v", rs)
	}
	h.waitState(sid[0], job.Pending)
	want := []string{
		fmt.Sprintf("%d REQUEUED 0:0 restarts=0 elapsed=60 batch:CANCELLED:0:15", id),
		fmt.Sprintf("%d PENDING 0:0 restarts=1 elapsed=0", id),
	}
	if diff := cmp.Diff(want, h.acctRuns(id, true)); diff != "" {
		t.Errorf("sacct -D while pending again (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want[1:], h.acctRuns(id, false)); diff != "" {
		t.Errorf("sacct while pending again (-want +got):\n%s", diff)
	}

	h.pastRequeueDelay() // requeue_delay_test.go
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	h.clock.Advance(30 * time.Second) // no cycle: the node's silence would fail it
	second := 1
	h.sendEvents("n01", api.JobEvent{Seq: 1 << 40, JobID: id, Run: &second, Kind: api.EventEnded})
	h.waitState(sid[0], job.Completed)
	// Requeued once it ended: its COMPLETED run is kept as a run too.
	if rs := results(t, h, 0, api.PathRequeue, api.RequeueRequest{JobIDs: sid}); firstErr(rs) != "" {
		t.Fatalf("requeue of the ended job: %+v", rs)
	}
	h.waitState(sid[0], job.Pending)
	want = []string{want[0],
		fmt.Sprintf("%d REQUEUED 0:0 restarts=1 elapsed=30 batch:COMPLETED:0:0", id),
		fmt.Sprintf("%d PENDING 0:0 restarts=2 elapsed=0", id),
	}
	if diff := cmp.Diff(want, h.acctRuns(id, true)); diff != "" {
		t.Errorf("sacct -D after the second requeue (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want[2:], h.acctRuns(id, false)); diff != "" {
		t.Errorf("sacct after the second requeue (-want +got):\n%s", diff)
	}
}

// TestRequeuedRunState: the state an ended run keeps depends on what
// requeued it, as in slurmctld's requeue paths.
func TestRequeuedRunState(t *testing.T) {
	tests := map[string]struct {
		st   jobStatus
		want job.State
	}{
		"scontrol requeue of a running job": {jobStatus{State: job.Running, EndState: job.Requeued}, job.Requeued},
		"preemption in requeue mode":        {jobStatus{State: job.Running, EndState: job.Requeued, Preempt: 1}, job.Preempted},
		"node failure of a --requeue job":   {jobStatus{State: job.Running}, job.NodeFail},
		"scontrol requeue of an ended job":  {jobStatus{State: job.Failed}, job.Requeued},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := requeuedRunState(&jobRecord{St: tc.st}); got != tc.want {
				t.Errorf("state %s, want %s", got, tc.want)
			}
		})
	}
}

// TestOrderRuns: records come by job id, runs oldest first; without -D
// only each job's latest matching run is left.
func TestOrderRuns(t *testing.T) {
	recs := []api.AcctJob{{JobID: 9, Restarts: 1}, {JobID: 5, Restarts: 2}, {JobID: 5}, {JobID: 7}, {JobID: 5, Restarts: 1}}
	key := func(js []api.AcctJob) []string {
		var out []string
		for _, j := range js {
			out = append(out, fmt.Sprintf("%d.%d", j.JobID, j.Restarts))
		}
		return out
	}
	if diff := cmp.Diff([]string{"5.0", "5.1", "5.2", "7.0", "9.1"}, key(orderRuns(append([]api.AcctJob(nil), recs...), true))); diff != "" {
		t.Errorf("with -D (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"5.2", "7.0", "9.1"}, key(orderRuns(append([]api.AcctJob(nil), recs...), false))); diff != "" {
		t.Errorf("without -D (-want +got):\n%s", diff)
	}
}

// TestAcctRunsNodeFail: a --requeue job whose node stops answering goes
// back to the queue; its ended run is kept as NODE_FAIL, as slurmctld
// records it.
func TestAcctRunsNodeFail(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { yes := true; r.Requeue = &yes }))
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	for range 5 { // the node goes silent
		h.tick(time.Minute)
	}
	h.waitState(fmt.Sprint(id), job.Pending)
	got := h.acctRuns(id, true)
	var elapsed int64
	if len(got) == 2 {
		fmt.Sscanf(got[0], fmt.Sprintf("%d NODE_FAIL 0:0 restarts=0 elapsed=%%d", id), &elapsed)
	}
	want := []string{fmt.Sprintf("%d NODE_FAIL 0:0 restarts=0 elapsed=%d batch:CANCELLED:0:0", id, elapsed),
		fmt.Sprintf("%d PENDING 0:0 restarts=1 elapsed=0", id)}
	if diff := cmp.Diff(want, got); diff != "" || elapsed < 60 {
		t.Errorf("sacct -D after the node failed, elapsed %d (-want +got):\n%s", elapsed, diff)
	}
}

// TestAcctRunsPreempted: a run ended by a preemption in requeue mode is
// kept as PREEMPTED, as slurmctld records it; the job pends again.
func TestAcctRunsPreempted(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	h.clock.Advance(20 * time.Second)
	h.eng.Preempt(id, 99, true, 90*time.Second)
	h.cycle()
	h.waitState(fmt.Sprint(id), job.Pending)
	got := h.acctRuns(id, true)
	want := []string{fmt.Sprintf("%d PREEMPTED 0:0 restarts=0 elapsed=20 batch:CANCELLED:0:10", id),
		fmt.Sprintf("%d PENDING 0:0 restarts=1 elapsed=0", id)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sacct -D after the preemption (the fake node dies of the checkpoint signal, 10) (-want +got):\n%s", diff)
	}
}
