//go:build integration

package test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestBatchFeatures: sbatch --batch runs the script on the first of the
// job's nodes with the features, as the peer (Slurm 22.05) runs a -N2 -C
// '[cpu*1&gpu*1]' --batch=gpu job on its gpu node, shows the list in
// scontrol show job, and refuses a --batch that is not a subset of -C.
func TestBatchFeatures(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, CPUs: 4, PerNode: []string{"Feature=cpu", "Feature=gpu"}}, "")
	const refused = "sbatch: error: Batch job submission failed: Job --batch option is invalid or not a subset of --constraints\n"
	for _, args := range []string{"--batch=cpu -C gpu", "--batch=gpu", "--batch=gpu*2 -C gpu*2", "--batch=nosuch|gpu -C gpu"} {
		code, _, errs := lc.runTool("sbatch", append(strings.Fields(args), "--wrap=true")...)
		if code != 1 || errs != refused {
			t.Errorf("sbatch %s: exit %d, stderr %q; want 1, %q", args, code, errs, refused)
		}
	}

	for _, tc := range []struct{ args, line string }{
		{"-N2 -C [cpu*1&gpu*1] --batch=gpu", "   BatchFeatures=gpu BatchHost=n02\n"},
		{"-N2 -C [cpu*1&gpu*1] --batch=gpu&cpu", "   BatchFeatures=gpu&cpu BatchHost=n01\n"}, // no node has both
		{"-N2 -C [cpu*1&gpu*1] --batch=", "   BatchFeatures= BatchHost=n01\n"},
		{"-N2 -C [cpu*1&gpu*1]", "   BatchHost=n01\n"},
	} {
		code, out, errs := lc.runTool("sbatch", append(strings.Fields(tc.args), "--parsable", "--wrap=sleep 60")...)
		n, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
		if code != 0 || err != nil {
			t.Fatalf("sbatch %s: exit %d %q %q", tc.args, code, out, errs)
		}
		id := strconv.Itoa(int(n))
		lc.waitState(uint32(n), job.Running)
		_, show, _ := lc.runTool("scontrol", "show", "job", id)
		if !strings.Contains(show, "   NodeList=n[01-02]\n"+tc.line) {
			t.Errorf("sbatch %s: scontrol show job lacks NodeList=n[01-02] then %q:\n%s", tc.args, tc.line, show)
		}
		lc.runTool("scancel", id)
		lc.waitState(uint32(n), job.Cancelled)
	}
}
