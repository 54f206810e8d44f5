//go:build integration

package test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestTmpDisk: nodes with TmpDisk 100 and 2000 MB, and one configured
// with more than the host's /tmp holds, which its daemon reports smaller
// and the controller drains ("Low TmpDisk", as slurmctld). A --tmp job
// too big for n01 lands on n02; two jobs each asking all of n02's TmpDisk
// run there together (it is not consumed); one more than any node has is
// refused with the peer's lines.
func TestTmpDisk(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 3, CPUs: 4,
		PerNode: []string{"TmpDisk=100", "TmpDisk=2000", "TmpDisk=1000000000"}}, "")
	lc.eventually("n03 drained as Low TmpDisk", func() error {
		if _, out, _ := lc.runTool("scontrol", "show", "node", "n03"); !strings.Contains(out, "Reason=Low TmpDisk [slurm@") {
			return fmt.Errorf("scontrol show node n03:\n%s", out)
		}
		return nil
	})
	if _, out, _ := lc.runTool("scontrol", "show", "node", "n01"); !strings.Contains(out, " TmpDisk=100 ") {
		t.Errorf("scontrol show node n01 lacks TmpDisk=100:\n%s", out)
	}

	// The peer: sbatch --tmp=10 --wrap=true on nodes without TmpDisk.
	code, _, errs := lc.runTool("sbatch", "--tmp=2000000000", "--wrap=true")
	want := "sbatch: error: Temporary disk specification can not be satisfied\n" +
		"sbatch: error: Batch job submission failed: Requested node configuration is not available\n"
	if code != 1 || errs != want {
		t.Errorf("sbatch --tmp=2000000000: exit %d, stderr %q; want 1, %q", code, errs, want)
	}

	code, _, errs = lc.runTool("srun", "--tmp=2000000000", "true")
	want = "srun: error: Temporary disk specification can not be satisfied\n" +
		"srun: error: Unable to allocate resources: Requested node configuration is not available\n"
	if code != 1 || errs != want {
		t.Errorf("srun --tmp=2000000000: exit %d, stderr %q; want 1, %q", code, errs, want)
	}

	var ids []uint32
	for _, name := range []string{"a", "b"} {
		code, out, errs := lc.runTool("sbatch", "--parsable", "--tmp=2000", "-x", "n03", "--wrap", gated(name))
		n, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
		if code != 0 || err != nil {
			t.Fatalf("sbatch --tmp=2000: exit %d %q %q", code, out, errs)
		}
		id := uint32(n)
		t.Cleanup(func() { lc.runTool("scancel", strconv.Itoa(int(id))) })
		ids = append(ids, id)
	}
	for _, id := range ids {
		j := lc.waitState(id, job.Running)
		if j.Nodes != "n02" {
			t.Errorf("job %d (--tmp=2000) runs on %q, want n02", id, j.Nodes)
		}
	}
	_, out, _ := lc.runTool("squeue", "-h", "-j", strconv.Itoa(int(ids[0])), "-o", "%d|%.6d")
	if out != "2000M| 2000M\n" {
		t.Errorf("squeue %%d: %q, want %q", out, "2000M| 2000M\n")
	}
	if _, out, _ := lc.runTool("scontrol", "show", "job", strconv.Itoa(int(ids[0]))); !strings.Contains(out, " MinTmpDiskNode=2000M\n") {
		t.Errorf("scontrol show job lacks MinTmpDiskNode=2000M:\n%s", out)
	}
	lc.touch("gate-a")
	lc.touch("gate-b")
}
