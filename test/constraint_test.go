//go:build integration

package test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestConstraintSyntax: -C with OR, matching OR, counts and parentheses
// on nodes with different features, refused and placed as the peer
// (Slurm 22.05) does: bad syntax and unknown features are "Invalid
// feature specification", what no node set can satisfy is "Requested
// node configuration is not available", and the expression shows as given
// (commas as '&') in squeue %f and scontrol show job.
func TestConstraintSyntax(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 4, CPUs: 4, PerNode: []string{
		"Feature=a100,rack1", "Feature=a100,rack1", "Feature=h100,rack2", "Feature=cpu,rack2"}}, "")
	const (
		invalid = "sbatch: error: Batch job submission failed: Invalid feature specification\n"
		config  = "sbatch: error: Batch job submission failed: Requested node configuration is not available\n"
	)
	for _, tc := range []struct{ args, want string }{
		{"-C a100||h100", invalid},
		{"-C &a100", invalid},
		{"-C [a100&h100]", invalid},
		{"-C a100*0", invalid},
		{"-C a100|nosuch", invalid},
		{"-C a100&h100", config},
		{"-C h100*2", config},
		{"-N1 -C a100*2", config},
	} {
		code, _, errs := lc.runTool("sbatch", append(strings.Fields(tc.args), "--wrap=true")...)
		if code != 1 || errs != tc.want {
			t.Errorf("sbatch %s: exit %d, stderr %q; want 1, %q", tc.args, code, errs, tc.want)
		}
	}

	for _, tc := range []struct{ args, nodes, features string }{
		{"-N2 -C [h100|a100]", "n[01-02]", "[h100|a100]"}, // h100 has one node: a100
		{"-N2 -C h100|cpu", "n[03-04]", "h100|cpu"},
		{"-C [rack1*1&cpu*1]", "n[01,04]", "[rack1*1&cpu*1]"},
		{"-C (a100|h100)&rack2", "n03", "(a100|h100)&rack2"},
		{"-C cpu,rack2", "n04", "cpu&rack2"},
	} {
		code, out, errs := lc.runTool("sbatch", append(strings.Fields(tc.args), "--parsable", "--wrap=sleep 60")...)
		n, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
		if code != 0 || err != nil {
			t.Fatalf("sbatch %s: exit %d %q %q", tc.args, code, out, errs)
		}
		id := strconv.Itoa(int(n))
		t.Cleanup(func() { lc.runTool("scancel", id) })
		if j := lc.waitState(uint32(n), job.Running); j.Nodes != tc.nodes {
			t.Errorf("sbatch %s runs on %q, want %q", tc.args, j.Nodes, tc.nodes)
		}
		if _, out, _ := lc.runTool("squeue", "-h", "-j", id, "-o", "%f"); out != tc.features+"\n" {
			t.Errorf("sbatch %s: squeue %%f %q, want %q", tc.args, out, tc.features)
		}
		if _, out, _ := lc.runTool("scontrol", "show", "job", id); !strings.Contains(out, " Features="+tc.features+" ") {
			t.Errorf("sbatch %s: scontrol show job lacks Features=%s:\n%s", tc.args, tc.features, out)
		}
	}
}
