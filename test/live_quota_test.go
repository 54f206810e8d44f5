//go:build integration

package test

import (
	"context"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// quotaConf is one queue whose jobs are requeued when preempted, over two
// nodes of 2 GPUs.
const quotaConf = `PreemptMode=REQUEUE
PartitionName=normal Nodes=ALL Default=YES QueueClass=normal PreemptMode=REQUEUE GraceTime=3 MaxTime=UNLIMITED DefaultTime=00:10:00 State=UP
`

// quotaTenants: lab owns every GPU, crowd owns none and may borrow.
const quotaTenants = `TenantName=lab Guarantee=gres/gpu=4
TenantName=crowd
UserName=root Accounts=crowd,lab
`

func account(a string) func(*job.Request) { return func(r *job.Request) { r.Account = a } }

// TestLiveReclaim: crowd borrows lab's idle GPUs (labelled borrowed);
// when lab submits work within its guarantee, a crowd job is preempted
// gracefully (reason reclaim) and requeued, and lab's job runs on owned
// GPUs. sshare shows who borrows and who lends; scontrol reconfigure
// reloads tenants.conf.
func TestLiveReclaim(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, GPUs: 2, Extra: quotaConf}, quotaTenants)
	yes := true
	requeue := func(r *job.Request) { r.Requeue = &yes }
	b1 := lc.submit(lc.script(gated("b1"), withGPUs(2), account("crowd"), requeue))
	b2 := lc.submit(lc.script(gated("b2"), withGPUs(2), account("crowd"), requeue))
	lc.waitState(b1, job.Running)
	j2 := lc.waitState(b2, job.Running)
	if j2.BorrowedGPUs != 2 || j2.Tenant != "crowd" {
		t.Errorf("crowd's job holds %d borrowed GPUs (tenant %q), want 2", j2.BorrowedGPUs, j2.Tenant)
	}
	shares, err := lc.cl.Shares(context.Background(), &api.SharesQuery{All: true})
	if err != nil {
		t.Fatal(err)
	}
	tenant := map[string]api.ShareRow{}
	for _, r := range shares.Rows {
		if r.User == "" {
			tenant[r.Account] = r
		}
	}
	if tenant["crowd"].Borrowed != 4 || tenant["lab"].Lent != 4 || tenant["lab"].Guarantee != 4 {
		t.Errorf("sshare rows %+v", shares.Rows)
	}

	own := lc.submit(lc.script("sleep 1", withGPUs(2), account("lab")))
	o := lc.waitState(own, job.Completed)
	if o.BorrowedGPUs != 0 {
		t.Errorf("lab's job ran on %d borrowed GPUs", o.BorrowedGPUs)
	}
	var victim api.Job
	for _, id := range []uint32{b1, b2} {
		if j := lc.job(id); j.Preemptions == 1 {
			victim = j
		}
	}
	if victim.PreemptReason != "reclaim" || victim.PreemptedBy != own || victim.Restarts != 1 {
		t.Errorf("victim %d: reason %q by %d restarts %d", victim.JobID, victim.PreemptReason, victim.PreemptedBy, victim.Restarts)
	}
	lc.touch("gate-b1")
	lc.touch("gate-b2")
	lc.waitState(b1, job.Completed)
	lc.waitState(b2, job.Completed)

	// tenants.conf reloads: crowd loses its user, so root may not submit
	// to it any more.
	lc.writeTenants("TenantName=lab Guarantee=gres/gpu=4\nTenantName=crowd\nUserName=root Accounts=lab\n")
	if _, err := lc.cl.Reconfigure(context.Background()); err != nil {
		t.Fatalf("reconfigure: %v", err)
	}
	_, err = lc.cl.Submit(context.Background(), &api.SubmitRequest{Job: lc.script("true", account("crowd"))})
	if err == nil || !strings.Contains(err.Error(), "may not use account crowd") {
		t.Errorf("submit to a tenant the user left: %v", err)
	}
}
