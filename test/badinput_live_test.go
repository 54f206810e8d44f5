//go:build integration

package test

import (
	"testing"

	"github.com/loamhpc/loam/test/clustertest"
)

// TestLiveShapeRefusals: what the peer's own controller refuses at submit
// because no node could hold it, Loam refuses with the peer's lines alone
// (Slurm's CPU or memory line where it prints one, none otherwise), and
// -w lists as the peer's sbatch and controller read them. The expected
// text is what the peer printed for the same requests on its 64-CPU,
// 500 GB, 8-GPU nodes, scaled to this cluster's nodes.
func TestLiveShapeRefusals(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, CPUs: 8, MemMB: 16000, GPUs: 2}, "")
	const unavailable = "sbatch: error: Batch job submission failed: Requested node configuration is not available\n"
	const badName = "sbatch: error: Batch job submission failed: Invalid node name specified\n"
	tests := map[string]struct {
		args     []string
		wantCode int
		want     string
	}{
		"more CPUs per task than a node has": {[]string{"-c", "9"}, 1,
			"sbatch: error: CPU count per node can not be satisfied\n" + unavailable},
		"more tasks per node than a node has CPUs": {[]string{"--ntasks-per-node=9"}, 1,
			"sbatch: error: CPU count per node can not be satisfied\n" + unavailable},
		"more memory than a node has": {[]string{"--mem=20000"}, 1,
			"sbatch: error: Memory specification can not be satisfied\n" + unavailable},
		"more memory per CPU than a node has": {[]string{"--mem-per-cpu=20000"}, 1,
			"sbatch: error: Memory specification can not be satisfied\n" + unavailable},
		"more GPUs per node than a node has": {[]string{"--gres=gpu:3"}, 1, unavailable},
		"a GPU type no node has":             {[]string{"--gpus=abc"}, 1, unavailable},
		"every node excluded":                {[]string{"-x", "n[01-02]"}, 1, unavailable},
		"-w and -x on the same node":         {[]string{"-w", "n01", "-x", "n01"}, 1, badName},
		"-w with an unclosed bracket":        {[]string{"-w", "bad["}, 1, badName},
		"-x with a reversed range":           {[]string{"-x", "n[3-1]"}, 1, badName},
		"-w with a reversed range": {[]string{"-w", "n[3-1]"}, 1,
			"sbatch: error: _parse_single_range: Invalid range: `3-1'\nsbatch: error: memory allocation failure\n"},
		"--get-user-env=bad": {[]string{"--get-user-env=bad"}, 255,
			"sbatch: error: Invalid --get-user-env specification\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, out, errs := lc.runTool("sbatch", append(tc.args, "--wrap=true")...)
			if code != tc.wantCode || out != "" || errs != tc.want {
				t.Errorf("sbatch %v: exit %d\nstdout %q\nstderr %q\nwant   %q (exit %d)", tc.args, code, out, errs, tc.want, tc.wantCode)
			}
		})
	}
}
