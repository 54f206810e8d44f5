//go:build integration

package test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestSacctListsLive: sacct reads -A, -r, --name and -s as Slurm 22.05's
// sacct does (quotes dropped, items lowercased, states by name or code in
// any case) and the controller's accounting compares names without case,
// as Slurm's database does (the accounting peer is not running: the
// expectations follow Slurm's source).
func TestSacctListsLive(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 1, CPUs: 4}, "")
	my := lc.submitted("-J", "MyJob")
	b := lc.submitted("-J", "b")
	other := lc.submitted("-J", "Other")
	for _, id := range []uint32{my, b, other} {
		lc.waitState(id, job.Completed)
	}
	for _, tc := range []struct {
		args []string
		want []uint32
	}{
		{[]string{"--name", "myjob"}, []uint32{my}},
		{[]string{"--name", `"MYJOB,B"`}, []uint32{my, b}},
		{[]string{"--name", "other", "-r", "NORMAL"}, []uint32{other}},
		{[]string{"--name", "other", "-r", "batch"}, nil},
		{[]string{"-s", "cd,Completed", "-E", "now"}, []uint32{my, b, other}},
		{[]string{"-s", "f,TO", "-E", "now"}, nil},
	} {
		var want strings.Builder
		for _, id := range tc.want {
			fmt.Fprintf(&want, "%d\n", id)
		}
		args := append([]string{"-X", "-n", "-P", "-o", "jobid", "-S", "2020-01-01"}, tc.args...)
		code, out, errs := lc.runTool("sacct", args...)
		if code != 0 || out != want.String() {
			t.Errorf("sacct %q: exit %d, %q (%s), want %q", tc.args, code, out, errs, want.String())
		}
	}
	code, _, errs := lc.runTool("sacct", "-s", "r,cg")
	if code != 1 || errs != "sacct: fatal: job state cg is not supported / accounted\n" {
		t.Errorf("sacct -s r,cg: exit %d, %q", code, errs)
	}
}
