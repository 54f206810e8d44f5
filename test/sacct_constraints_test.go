//go:build integration

package test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/loamhpc/loam/test/clustertest"
)

// TestSacctConstraintsLive: sacct -C over the controller's accounting
// selects the jobs whose stored -C contains every item, as Slurm's
// slurmdbd does (the peer has none: the expectations follow its query).
func TestSacctConstraintsLive(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, CPUs: 4, PerNode: []string{"Feature=gpu,rack1", "Feature=cpu,rack2"}}, "")
	gpu := lc.submitted("-C", "gpu,rack1")
	cpu := lc.submitted("-C", "cpu")
	plain := lc.submitted()
	for _, tc := range []struct {
		items string
		want  []uint32
	}{
		{"rack", []uint32{gpu}},
		{"GPU,rack1", []uint32{gpu}},
		{"u", []uint32{gpu, cpu}},
		{"", []uint32{plain}},
		{"gpu,cpu", nil},
	} {
		var want strings.Builder
		for _, id := range tc.want {
			fmt.Fprintf(&want, "%d\n", id)
		}
		code, out, errs := lc.runTool("sacct", "-X", "-n", "-P", "-o", "jobid", "-S", "2020-01-01", "-C", tc.items)
		if code != 0 || out != want.String() {
			t.Errorf("sacct -C %q: exit %d, %q (%s), want %q", tc.items, code, out, errs, want.String())
		}
	}
}
