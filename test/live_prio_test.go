//go:build integration

package test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

const prioConf = `PriorityWeightAge=1000
PriorityWeightFairshare=2000
PartitionName=normal Nodes=ALL Default=YES QueueClass=normal AgingRate=600 AgingCap=500 MaxTime=UNLIMITED DefaultTime=00:10:00 State=UP
`

const prioTenants = `TenantName=lab Weight=2 Guarantee=gres/gpu=1
TenantName=crowd Weight=1
UserName=root Accounts=lab,crowd
`

// TestLiveSprio: sprio shows the pending jobs' factors (Slurm's columns
// and Loam's AGING), sprio --history shows the audit trail from the
// scheduler's changes, and sshare the tenants' shares.
func TestLiveSprio(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 1, GPUs: 1, Extra: prioConf}, prioTenants)
	hold := lc.submit(lc.script(gated("hold"), withGPUs(1), account("lab")))
	lc.waitState(hold, job.Running)
	waiting := lc.submit(lc.script("true", withGPUs(1), account("crowd")))
	lc.waitJob(waiting, "prioritized", func(j api.Job) bool { return j.Priority > 0 && j.StateReason != "None" })

	code, out, errs := lc.runTool("sprio")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 || !strings.Contains(lines[0], "AGE  FAIRSHARE    JOBSIZE      AGING COMPENSATION") {
		t.Errorf("sprio: exit %d\n%s%s", code, out, errs)
	}
	lc.eventually("the trail of the waiting job", func() error {
		code, out, errs := lc.runTool("sprio", "--history", "-j", fmt.Sprint(waiting))
		if code != 0 || !strings.Contains(out, " initial") {
			return fmt.Errorf("exit %d\n%s%s", code, out, errs)
		}
		return nil
	})
	code, out, errs = lc.runTool("sshare", "-a")
	if code != 0 || !strings.Contains(out, " lab ") || !strings.Contains(out, "  crowd ") || !strings.Contains(out, "root") {
		t.Errorf("sshare -a: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = lc.runTool("scontrol", "show", "job", fmt.Sprint(hold))
	if code != 0 || !strings.Contains(out, "Tenant=lab") || !strings.Contains(out, "GPUs=1 BorrowedGPUs=0") {
		t.Errorf("scontrol show job:\n%s", out)
	}
	lc.openGates("hold")
	lc.waitState(waiting, job.Completed)
}
