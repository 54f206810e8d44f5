//go:build integration

package test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestSpecialExitSqueueS16D: through the real loam-ctld and squeue, a job
// requeued with State=SpecialExit lists as the peer's did: ST=SE,
// STATE=SPECIAL_EXIT, selected by -t SE and the default listing, not by
// -t PD; released, it is PD again.
func TestSpecialExitSqueueS16D(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 1, CPUs: 4})
	d := c.StartCtld(t)
	n := c.StartNode(t, d, 0)
	lc := &liveCluster{t: t, c: c, d: d, cl: d.Client(), work: t.TempDir()}
	id := clustertest.Submit(t, lc.cl, clustertest.Job())
	waitJob(t, lc.cl, id, "running", inState(job.Running))
	n.Launch(t, id, 10*time.Second)
	ids := []string{fmt.Sprint(id)}
	r, err := lc.cl.Requeue(context.Background(), &api.RequeueRequest{JobIDs: ids, SpecialExit: true})
	mustResults(t, r, err)
	waitJob(t, lc.cl, id, "pending after requeue", inState(job.Pending))
	list := func(args ...string) string {
		code, out, errOut := lc.runTool("squeue", append([]string{"-h", "-o", "%i %t %T %r"}, args...)...)
		if code != 0 {
			t.Fatalf("squeue %v: exit %d: %s", args, code, errOut)
		}
		return out
	}
	se := fmt.Sprintf("%d SE SPECIAL_EXIT job requeued in special exit state\n", id)
	got := map[string]string{"no -t": list(), "-t SE": list("-t", "SE"), "-t PD": list("-t", "PD")}
	want := map[string]string{"no -t": se, "-t SE": se, "-t PD": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("squeue (-want +got):\n%s", diff)
	}
	if code, _, errOut := lc.runTool("scontrol", "release", ids[0]); code != 0 {
		t.Fatalf("release: exit %d: %s", code, errOut)
	}
	// Released, the job shows Reason=None until the next scheduling pass
	// gives it BeginTime back (the requeue's wait is kept), as on the peer.
	wantPD := fmt.Sprintf("%d PD PENDING BeginTime\n", id)
	clustertest.Eventually(t, 10*time.Second, "released job pending on its begin time", func() error {
		if got := list("-t", "PD"); got != wantPD {
			return fmt.Errorf("squeue -t PD: got %q, want %q", got, wantPD)
		}
		return nil
	})
}
