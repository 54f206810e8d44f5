//go:build integration

package test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestCoreSpecMain: a node with CoreSpecCount=2 and MemSpecLimit=6000
// shows them as the peer's scontrol does, gives an --exclusive job only
// the other CPUs (the peer: 62 of 64, none of the specialized ones in
// CPU_IDs), lets --mem=0 have RealMemory less MemSpecLimit (the peer:
// Mem=503808 of 512000), refuses more memory than that with the peer's
// message, and sbatch -S says it is ignored as the peer's sbatch does.
func TestCoreSpecMain(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 1, CPUs: 8, MemMB: 16000, NodeExtra: "CoreSpecCount=2 MemSpecLimit=6000"}, "")
	_, out, _ := lc.runTool("scontrol", "show", "node", "n01")
	for _, w := range []string{"CPUEfctv=6 CPUTot=8 ", "\n   CoreSpecCount=2 CPUSpecList=6-7 MemSpecLimit=6000\n",
		"CfgTRES=cpu=6,mem=16000M,billing=6\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("scontrol show node lacks %q:\n%s", w, out)
		}
	}

	code, _, errs := lc.runTool("sbatch", "--mem=10001", "--wrap=true")
	_, out, _ = lc.runTool("scontrol", "show", "partition", "normal")
	if !strings.Contains(out, " TotalCPUs=8 ") || !strings.Contains(out, "TRES=cpu=6,mem=16000M,node=1,billing=6") {
		t.Errorf("scontrol show partition: want TotalCPUs=8 and TRES=cpu=6:\n%s", out)
	}

	// Loam's admission says why first; the last line is the peer's.
	if want := "sbatch: error: Batch job submission failed: Requested node configuration is not available\n"; code != 1 || !strings.HasSuffix(errs, want) {
		t.Errorf("sbatch --mem=10001: exit %d %q, want 1 ending %q", code, errs, want)
	}

	// Slurm leaves -n 7 pending (Resources) for ever; Loam refuses it.
	if code, _, errs := lc.runTool("sbatch", "-n", "7", "--wrap=true"); code != 1 || !strings.Contains(errs, "partition normal has 6 CPUs") {
		t.Errorf("sbatch -n 7 on 6 usable CPUs: exit %d %q, want a refusal", code, errs)
	}

	code, out, errs = lc.runTool("sbatch", "--parsable", "--exclusive", "--mem=0", "-S", "1", "--wrap=sleep 300")
	if want := "sbatch: error: Ignoring -S since it's not allowed by configuration (AllowSpecResourcesUsage = No)\n"; code != 0 || errs != want {
		t.Fatalf("sbatch -S 1: exit %d %q, want 0 %q", code, errs, want)
	}
	id64, _ := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
	id := uint32(id64)
	t.Cleanup(func() { lc.runTool("scancel", strconv.Itoa(int(id))) })
	lc.waitState(id, job.Running)
	_, out, _ = lc.runTool("scontrol", "show", "job", "-d", strconv.Itoa(int(id)))
	for _, w := range []string{" NumCPUs=6 ", " CPU_IDs=0-5 Mem=10000 "} {
		if !strings.Contains(out, w) {
			t.Errorf("scontrol show job -d lacks %q:\n%s", w, out)
		}
	}
	_, out, _ = lc.runTool("scontrol", "show", "node", "n01")
	if !strings.Contains(out, "CPUAlloc=6 CPUEfctv=6 CPUTot=8 ") || !strings.Contains(out, "State=ALLOCATED ") {
		t.Errorf("node not ALLOCATED with its 6 usable CPUs:\n%s", out)
	}
	_, out, _ = lc.runTool("sinfo", "-h", "-N", "-o", "%c %C")
	if out != "8 6/2/0/8\n" {
		t.Errorf("sinfo %%c %%C = %q, want the peer's shape %q", out, "8 6/2/0/8\n")
	}
}
