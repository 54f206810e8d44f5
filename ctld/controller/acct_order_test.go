package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestAcctSubmitOrder: sacct lists jobs by submit time, as on the Slurm
// 22.05 accounting peer; a requeued job, whose latest run was submitted
// at the requeue, moves after a job submitted before the requeue.
func TestAcctSubmitOrder(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	first := h.mustSubmit(alice, simpleJob(func(r *job.Request) { yes := true; r.Requeue = &yes }))
	h.cycle()
	n.Launch(t, first, 5*time.Second)
	second := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	h.tick(time.Minute)
	ids := []string{fmt.Sprint(first)}
	if rs := results(t, h, 0, api.PathRequeue, api.RequeueRequest{JobIDs: ids}); firstErr(rs) != "" {
		t.Fatalf("requeue: %+v", rs)
	}
	h.waitState(ids[0], job.Pending)
	var acct api.AcctResponse
	h.call(alice, api.PathAccounting, api.AcctQuery{Users: []string{fmt.Sprint(alice)}}, &acct)
	var got []uint32
	for _, j := range acct.Jobs {
		got = append(got, j.JobID)
	}
	if diff := cmp.Diff([]uint32{second, first}, got); diff != "" {
		t.Errorf("job order (-want +got):\n%s", diff)
	}
}

// TestOrderRunsPeer: the order of the peer's "sacct -X" for jobs
// submitted in one second: a plain job before an array's tasks (array
// job id 0 first), the tasks by task id although the array's first id
// went to its last task, then later jobs by id; -D keeps every run,
// oldest first, without it only the latest run is left.
func TestOrderRunsPeer(t *testing.T) {
	task := func(id uint32, k int) api.AcctJob {
		return api.AcctJob{JobID: id, ArrayJobID: 7, ArrayTaskID: &k, SubmitTime: 355}
	}
	jobs := []api.AcctJob{
		{JobID: 12, SubmitTime: 356},
		task(7, 3), task(9, 0), task(10, 1), task(11, 2),
		{JobID: 8, SubmitTime: 356, Restarts: 1},
		{JobID: 8, SubmitTime: 355},
		{JobID: 6, SubmitTime: 355},
	}
	key := func(js []api.AcctJob) []string {
		var out []string
		for _, j := range js {
			s := fmt.Sprint(j.JobID)
			if j.ArrayTaskID != nil {
				s = fmt.Sprintf("%d_%d", j.ArrayJobID, *j.ArrayTaskID)
			}
			out = append(out, fmt.Sprintf("%s/%d", s, j.Restarts))
		}
		return out
	}
	tests := map[string]struct {
		dups bool
		want []string
	}{
		"without -D the latest run only": {false, []string{"6/0", "7_0/0", "7_1/0", "7_2/0", "7_3/0", "8/1", "12/0"}},
		"with -D every run":              {true, []string{"6/0", "8/0", "7_0/0", "7_1/0", "7_2/0", "7_3/0", "8/1", "12/0"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := key(orderRuns(append([]api.AcctJob(nil), jobs...), tc.dups))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}
