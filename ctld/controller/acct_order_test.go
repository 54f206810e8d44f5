package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestAcctJobIDOrder: sacct lists jobs by job id, as Slurm's accounting
// query orders them; a requeued job, whose submit time moves to the
// requeue, keeps its place before jobs submitted after it.
func TestAcctJobIDOrder(t *testing.T) {
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
	if len(acct.Jobs) == 2 && acct.Jobs[0].SubmitTime <= acct.Jobs[1].SubmitTime {
		t.Fatalf("the requeue did not move the first job's submit time past the second's: %+v", acct.Jobs)
	}
	if diff := cmp.Diff([]uint32{first, second}, got); diff != "" {
		t.Errorf("job order (-want +got):\n%s", diff)
	}
}
