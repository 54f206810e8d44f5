//go:build integration

package test

import (
	"strconv"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestLicensesLive: licenses asked with sbatch -L travel to the
// controller, which counts them: a second job waits with Reason=Licenses
// while the first holds both matlab licenses, scontrol show lic says so,
// an impossible request is refused with the peer's text (Slurm 22.05),
// and the waiting job starts once the first ends.
func TestLicensesLive(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, Extra: "Licenses=matlab:2,wandb:10"}, "")
	holder := lc.sbatchID("-L", "matlab:2", "-o", "/dev/null", "--wrap", gated("lic"))
	t.Cleanup(func() { lc.touch("gate-lic") })
	waiter := lc.sbatchID("-L", "matlab:1,wandb", "-o", "/dev/null", "--wrap", "true")
	id := func(s string) uint32 {
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			t.Fatal(err)
		}
		return uint32(n)
	}
	lc.waitState(id(holder), job.Running)
	lc.waitJob(id(waiter), "pending on Licenses", func(j api.Job) bool {
		return j.JobState == job.Pending && j.StateReason == job.ReasonLicenses
	})

	_, out, _ := lc.runTool("scontrol", "show", "lic", "matlab")
	if want := "LicenseName=matlab\n    Total=2 Used=2 Free=0 Reserved=0 Remote=no\n"; out != want {
		t.Errorf("scontrol show lic matlab:\n%s\nwant:\n%s", out, want)
	}
	_, out, _ = lc.runTool("squeue", "-h", "-j", waiter, "-o", "%W %r")
	if want := "matlab:1,wandb Licenses\n"; out != want {
		t.Errorf("squeue %%W %%r: %q, want %q", out, want)
	}
	for _, bad := range []string{"matlab:3", "foo"} {
		code, _, errs := lc.runTool("sbatch", "-L", bad, "--wrap", "true")
		if want := "sbatch: error: Batch job submission failed: Invalid license specification\n"; code != 1 || errs != want {
			t.Errorf("sbatch -L %s: exit %d, stderr %q, want 1 and %q", bad, code, errs, want)
		}
	}

	lc.touch("gate-lic")
	lc.waitState(id(waiter), job.Completed)
}
