package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestStateWindow: sacct -s with -S/-E selects the runs that were in a
// state during the window, by the rules of Slurm's accounting query; the
// window here is [1000, 2000].
func TestStateWindow(t *testing.T) {
	const S, E = 1000, 2000
	run := func(st job.State, eligible, start, end int64) runTimes {
		return runTimes{state: st, eligible: eligible, start: start, end: end}
	}
	tests := map[string]struct {
		want   job.State
		run    runTimes
		window [2]int64
		match  bool
	}{
		"PD: still pending, eligible before the end": {job.Pending, run(job.Pending, 500, 0, 0), [2]int64{S, E}, true},
		"PD: eligible only after the end":            {job.Pending, run(job.Pending, 2500, 0, 0), [2]int64{S, E}, false},
		"PD: held, never eligible":                   {job.Pending, run(job.Pending, 0, 0, 0), [2]int64{S, E}, false},
		"PD: started inside the window, now done":    {job.Pending, run(job.Completed, 500, 1500, 1800), [2]int64{S, E}, true},
		"PD: started before the window":              {job.Pending, run(job.Running, 500, 900, 0), [2]int64{S, E}, false},
		"PD: cancelled unstarted inside the window":  {job.Pending, run(job.Cancelled, 500, 0, 1200), [2]int64{S, E}, true},
		"PD: cancelled unstarted before the window":  {job.Pending, run(job.Cancelled, 500, 0, 900), [2]int64{S, E}, false},
		"R: still running, started before the end":   {job.Running, run(job.Running, 500, 1500, 0), [2]int64{S, E}, true},
		"R: started after the end":                   {job.Running, run(job.Running, 500, 2500, 0), [2]int64{S, E}, false},
		"R: ran across the start, completed since":   {job.Running, run(job.Completed, 500, 900, 1100), [2]int64{S, E}, true},
		"R: ended before the window":                 {job.Running, run(job.Failed, 500, 600, 900), [2]int64{S, E}, false},
		"R: suspended now, no end":                   {job.Running, run(job.Suspended, 500, 900, 0), [2]int64{S, E}, false},
		"R: never started":                           {job.Running, run(job.Cancelled, 500, 0, 1500), [2]int64{S, E}, false},
		"CD: completed inside the window":            {job.Completed, run(job.Completed, 500, 600, 1500), [2]int64{S, E}, true},
		"CD: completed on the window's end":          {job.Completed, run(job.Completed, 500, 600, E), [2]int64{S, E}, true},
		"CD: completed after the window":             {job.Completed, run(job.Completed, 500, 600, 2500), [2]int64{S, E}, false},
		"CD: failed inside the window":               {job.Completed, run(job.Failed, 500, 600, 1500), [2]int64{S, E}, false},
		"RQ: a requeued run ended inside":            {job.Requeued, run(job.Requeued, 500, 600, 1500), [2]int64{S, E}, true},
		"PR: a preempted run ended before":           {job.Preempted, run(job.Preempted, 500, 600, 900), [2]int64{S, E}, false},
		"CD: an open end":                            {job.Completed, run(job.Completed, 500, 600, 1e9), [2]int64{S, 0}, true},
		"no window: the state the run is in":         {job.Completed, run(job.Completed, 500, 600, 900), [2]int64{0, 0}, true},
		"no window: another state":                   {job.Running, run(job.Completed, 500, 600, 900), [2]int64{0, 0}, false},
		"S: no time rule, the state the run is in":   {job.Suspended, run(job.Suspended, 500, 600, 0), [2]int64{S, E}, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			w := stateWindow{states: map[job.State]bool{tc.want: true}, start: tc.window[0], end: tc.window[1]}
			if got := w.match(tc.run); got != tc.match {
				t.Errorf("match %v, want %v", got, tc.match)
			}
		})
	}
}

// TestDefaultWindow: without -s, sacct's window [1000, 2000] holds the
// runs eligible before its end that had not ended before its start, as
// Slurm's accounting selects; on the peer a held job cancelled before it
// ran is not in the default listing, but "sacct -j" (no window) shows it.
func TestDefaultWindow(t *testing.T) {
	const S, E = 1000, 2000
	run := func(st job.State, eligible, start, end int64) runTimes {
		return runTimes{state: st, eligible: eligible, start: start, end: end}
	}
	tests := map[string]struct {
		run    runTimes
		window [2]int64
		match  bool
	}{
		"completed inside":                  {run(job.Completed, 500, 600, 1500), [2]int64{S, E}, true},
		"ended before the start":            {run(job.Completed, 500, 600, 900), [2]int64{S, E}, false},
		"still running":                     {run(job.Running, 500, 600, 0), [2]int64{S, E}, true},
		"pending, eligible":                 {run(job.Pending, 1500, 0, 0), [2]int64{S, E}, true},
		"pending, begin time after the end": {run(job.Pending, 2500, 0, 0), [2]int64{S, E}, false},
		"held, cancelled unstarted":         {run(job.Cancelled, 0, 0, 1500), [2]int64{S, E}, false},
		"held, still pending":               {run(job.Pending, 0, 0, 0), [2]int64{S, E}, false},
		"eligible on the end":               {run(job.Completed, E, E, E), [2]int64{S, E}, false},
		"no start (sacct -j): held too":     {run(job.Cancelled, 0, 0, 1500), [2]int64{0, E}, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			w := stateWindow{start: tc.window[0], end: tc.window[1]}
			if got := w.match(tc.run); got != tc.match {
				t.Errorf("match %v, want %v", got, tc.match)
			}
		})
	}
}

// TestAcctStateWindowLife: sacct -s R -S -E lists a job that ran during
// the window though it has completed since; -s CD lists it only when it
// ended inside the window. The runs of a requeued job are selected one by
// one: -s RQ finds the ended run though the job runs again.
func TestAcctStateWindowLife(t *testing.T) {
	h := newHarness(t)
	appendConf(t, h, "AuthInfo=cred_expire=19\n") // the requeued job may run 20 s later
	h.restart()
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { yes := true; r.Requeue = &yes }))
	sid := fmt.Sprint(id)
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	start := h.job(sid).StartTime
	h.clock.Advance(40 * time.Second)
	if rs := results(t, h, 0, api.PathRequeue, api.RequeueRequest{JobIDs: []string{sid}}); firstErr(rs) != "" {
		t.Fatalf("requeue: %+v", rs)
	}
	h.waitState(sid, job.Pending)
	requeued := start + 40
	h.clock.Advance(20 * time.Second)
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	h.clock.Advance(30 * time.Second)
	second := 1
	h.sendEvents("n01", api.JobEvent{Seq: 1 << 40, JobID: id, Run: &second, Kind: api.EventEnded})
	h.waitState(sid, job.Completed)
	end := requeued + 50

	tests := map[string]struct {
		q    api.AcctQuery
		want []string
	}{
		"R during the first run: the latest run that ran then": {
			api.AcctQuery{States: []string{"R"}, StartTime: start + 1, EndTime: start + 2}, []string{"REQUEUED"}},
		"R during the second run": {
			api.AcctQuery{States: []string{"R"}, StartTime: end - 1, EndTime: end}, []string{"COMPLETED"}},
		"R over both runs, -D": {
			api.AcctQuery{States: []string{"R"}, StartTime: start, EndTime: end, Duplicates: true}, []string{"REQUEUED", "COMPLETED"}},
		"CD ended inside": {
			api.AcctQuery{States: []string{"CD"}, StartTime: end, EndTime: end + 1}, []string{"COMPLETED"}},
		"CD while it ran": {
			api.AcctQuery{States: []string{"CD"}, StartTime: start, EndTime: end - 1}, nil},
		"RQ over everything": {
			api.AcctQuery{States: []string{"RQ"}, EndTime: end + 1}, []string{"REQUEUED"}},
		"PD between the runs (eligible from the BeginTime the requeue set)": {
			api.AcctQuery{States: []string{"PD"}, StartTime: requeued + 19, EndTime: requeued + 21}, []string{"COMPLETED"}},
		"not PD before the requeue's BeginTime": {
			api.AcctQuery{States: []string{"PD"}, StartTime: requeued + 5, EndTime: requeued + 6}, nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var out api.AcctResponse
			tc.q.JobIDs = []string{sid}
			if err := h.call(0, api.PathAccounting, tc.q, &out); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, j := range out.Jobs {
				got = append(got, string(j.State))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("states (-want +got):\n%s", diff)
			}
		})
	}
}
