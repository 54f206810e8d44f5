//go:build integration

package test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestRequeueBeginTimeLive: through the real loam-ctld, scontrol requeue
// of a running job holds it back as Slurm does: PENDING with
// Reason=BeginTime, SubmitTime the requeue time and EligibleTime
// cred_expire + 1 s later (AuthInfo=cred_expire=5 here: 6 s); it runs
// again once that time has come, with Restarts=1.
func TestRequeueBeginTimeLive(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 1, CPUs: 4, Extra: "AuthInfo=cred_expire=5"})
	d := c.StartCtld(t)
	n := c.StartNode(t, d, 0)
	cl, ctx := d.Client(), context.Background()
	id := clustertest.Submit(t, cl, clustertest.Job())
	waitJob(t, cl, id, "running", inState(job.Running))
	n.Launch(t, id, 10*time.Second)

	r, err := cl.Requeue(ctx, &api.RequeueRequest{JobIDs: []string{fmt.Sprint(id)}})
	mustResults(t, r, err)
	j := waitJob(t, cl, id, "pending after requeue", inState(job.Pending))
	got := fmt.Sprintf("%s %s restarts=%d wait=%d", j.JobState, j.StateReason, j.Restarts, j.EligibleTime-j.SubmitTime)
	if want := "PENDING BeginTime restarts=1 wait=6"; got != want {
		t.Errorf("requeued job: got %q, want %q", got, want)
	}
	j = waitJob(t, cl, id, "running again", inState(job.Running))
	if started := j.StartTime; started < j.EligibleTime {
		t.Errorf("ran again at %d, before its eligible time %d", started, j.EligibleTime)
	}
}
