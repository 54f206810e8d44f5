//go:build integration

package test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/loamhpc/loam/test/clustertest"
)

// TestAllocationRefusedLines: salloc and srun refused by the controller,
// with the peer's (Slurm 22.05) lines: a request no node configuration
// can hold ends salloc with "Job allocation N has been revoked." naming
// the id it used up (printed last, where the peer printed it most often:
// its line races the error lines); a refusal before the job has an id
// prints no such line and leaves the id to the next job; srun never
// prints it.
func TestAllocationRefusedLines(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, CPUs: 4, PerNode: []string{"Feature=gpu", "Feature=cpu"}}, "")
	first := lc.submitted()
	unavailable := "Requested node configuration is not available"
	steps := []struct {
		prog, args string
		want       string // %[1]d: the id the refusal used up
		usesID     bool
	}{
		{"salloc", "-C gpu&cpu", "salloc: error: Job submit/allocate failed: " + unavailable +
			"\nsalloc: Job allocation %[1]d has been revoked.\n", true},
		{"salloc", "--mem=999999999", "salloc: error: Memory specification can not be satisfied\n" +
			"salloc: error: Job submit/allocate failed: " + unavailable +
			"\nsalloc: Job allocation %[1]d has been revoked.\n", true},
		{"srun", "-C gpu&cpu", "srun: error: Unable to allocate resources: " + unavailable + "\n", true},
		{"salloc", "-C nosuch", "salloc: error: Job submit/allocate failed: Invalid feature specification\n", true},
		{"salloc", "-p nosuch", "salloc: error: invalid partition specified: nosuch\n" +
			"salloc: error: Job submit/allocate failed: Invalid partition name specified\n", false},
	}
	next := first + 1
	for _, s := range steps {
		code, out, errs := lc.runTool(s.prog, append(strings.Fields(s.args), "true")...)
		want := s.want
		if strings.Contains(want, "%[1]d") {
			want = fmt.Sprintf(want, next)
		}
		if code != 1 || out != "" || errs != want {
			t.Errorf("%s %s: exit %d, stdout %q, stderr\n%s\nwant exit 1, no stdout, stderr\n%s", s.prog, s.args, code, out, errs, want)
		}
		if s.usesID {
			next++
		}
	}
	if got := lc.submitted(); got != next {
		t.Errorf("the next job has id %d, want %d", got, next)
	}
}
