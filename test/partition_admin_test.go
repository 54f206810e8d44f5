//go:build integration

package test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/test/clustertest"
)

// TestPartitionAdminLive runs the admin's maintenance sequence through the
// real commands and daemons, with the peer's answers: State=DOWN leaves a
// new job pending with PartitionDown and sinfo shows "down"; INACTIVE
// refuses a submission with Slurm's text and exit 1 and the queued job
// waits with PartitionInactive; UP starts it; scontrol reconfigure takes
// the partition from slurm.conf again (no ReconfigFlags).
func TestPartitionAdminLive(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 1}, "")
	run := func(name string, args ...string) string {
		code, out, errs := lc.runTool(name, args...)
		return fmt.Sprintf("%d %s%s", code, out, errs)
	}
	var got []string
	got = append(got, run("scontrol", "update", "PartitionName=normal", "State=DOWN"))
	got = append(got, run("sinfo", "-h", "-o", "%P %a"))
	id := lc.sbatchID("--wrap", "sleep 30")
	reason := func(want string) {
		lc.eventually("reason "+want, func() error {
			if r := strings.TrimSpace(run("squeue", "-h", "-j", id, "-o", "%T %r")); r != "0 PENDING "+want {
				return fmt.Errorf("squeue: %q", r)
			}
			return nil
		})
	}
	reason("PartitionDown")
	got = append(got, run("scontrol", "update", "PartitionName=normal", "State=INACTIVE"))
	got = append(got, run("sbatch", "--wrap", "true"))
	reason("PartitionInactive")
	got = append(got, run("scontrol", "update", "PartitionName=normal", "State=UP"))
	lc.eventually("the job to start", func() error {
		if r := strings.TrimSpace(run("squeue", "-h", "-j", id, "-o", "%T")); r != "0 RUNNING" {
			return fmt.Errorf("squeue: %q", r)
		}
		return nil
	})
	got = append(got, run("scontrol", "update", "PartitionName=normal", "State=DRAIN"))
	got = append(got, run("scontrol", "reconfigure"))
	got = append(got, run("sinfo", "-h", "-o", "%P %a"))
	got = append(got, run("scancel", id))
	want := []string{"0 ", "0 normal* down\n", "0 ",
		"1 sbatch: error: Batch job submission failed: Required partition not available (inactive or drain)\n",
		"0 ", "0 ", "0 ", "0 normal* up\n", "0 "}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
