//go:build integration

package test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestNotifyDeliver: scontrol notify to a running batch job exits 0 with
// no output and the job's standard error gets slurmstepd's line, as on
// the peer (sbatch --wrap, scontrol notify ID hello world: the output file
// holds "slurmstepd-cpu001: error: hello world"): in its output file
// without -e, in its error file with one, nowhere with -e /dev/null; the
// script's own lines before and after stay in order around it.
func TestNotifyDeliver(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 1, Extra: topConf}, "")
	tests := map[string]struct {
		gate    string
		errArgs []string
		wantOut string // "@LINE@" is the notification line
		wantErr string
	}{
		"into the output file without -e": {gate: "out", wantOut: "before\n@LINE@after\n"},
		"into its own error file":         {gate: "err", errArgs: []string{"-e", "err-%j"}, wantOut: "before\nafter\n", wantErr: "@LINE@"},
		"nowhere with -e /dev/null":       {gate: "null", errArgs: []string{"-e", "/dev/null"}, wantOut: "before\nafter\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			gate := tc.gate
			args := append([]string{"-o", "out-%j"}, tc.errArgs...)
			args = append(args, "--wrap", "echo before; "+gated(gate)+"; echo after")
			id := lc.sbatchID(args...)
			n, _ := strconv.ParseUint(id, 10, 32)
			j := lc.waitState(uint32(n), job.Running)
			lc.waitFile("running-"+gate, "")
			code, out, errs := lc.runTool("scontrol", "notify", id, "hello", "world")
			if code != 0 || out != "" || errs != "" {
				t.Errorf("scontrol notify %s: exit %d stdout %q stderr %q, want 0 and nothing", id, code, out, errs)
			}
			lc.touch("gate-" + gate)
			lc.waitState(uint32(n), job.Completed)
			line := "slurmstepd-" + j.BatchHost + ": error: hello world\n"
			expand := func(s string) string { return strings.ReplaceAll(s, "@LINE@", line) }
			if got := lc.file("out-" + id); got != expand(tc.wantOut) {
				t.Errorf("output file %q, want %q", got, expand(tc.wantOut))
			}
			if got := lc.file("err-" + id); got != expand(tc.wantErr) {
				t.Errorf("error file %q, want %q", got, expand(tc.wantErr))
			}
		})
	}
}
