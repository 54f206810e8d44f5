//go:build integration

package test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loamhpc/loam/test/clustertest"
)

// runTool runs one of Loam's commands ($LOAM_BIN) against the live
// cluster and returns its exit status, stdout and stderr.
func (lc *liveCluster) runTool(name string, args ...string) (int, string, string) {
	lc.t.Helper()
	cmd := exec.Command(filepath.Join(clustertest.Bin(lc.t), name), args...)
	cmd.Dir = lc.work
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LOAM_CONF=" + lc.c.ConfPath, "HOME=" + lc.work, "TZ=UTC"}
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		lc.t.Fatalf("%s: %v", name, err)
	}
	return code, out.String(), errb.String()
}

// TestLiveAdmission: sbatch (and sbatch --test-only) refuse at submit
// what the peer Slurm accepted and then left pending forever or failed at
// start (testdata/live-peer-admission.txt), each with its own message and
// exit status 1; a job that can run is accepted.
func TestLiveAdmission(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, GPUs: 2}, "")
	tests := map[string]struct {
		args []string
		want string
	}{
		"-N 999": {[]string{"-N", "999"},
			"sbatch: error: 999 nodes requested: partition normal has 2 nodes that can hold the job's share\n" +
				"sbatch: error: Batch job submission failed: Node count specification invalid\n"},
		"-n 100000": {[]string{"-n", "100000"},
			"sbatch: error: 100000 CPUs requested: partition normal has 16 CPUs on the nodes that can hold the job\n" +
				"sbatch: error: Batch job submission failed: More processors requested than permitted\n"},
		"afterok on a job that does not exist": {[]string{"--dependency=afterok:99999999"},
			"sbatch: error: job 99999999 does not exist\n" +
				"sbatch: error: Batch job submission failed: Job dependency problem\n"},
		"an unknown QOS": {[]string{"--qos=nosuch"},
			"sbatch: error: no QOS \"nosuch\" is defined (known: normal and those partitions name in AllowQos/DenyQos)\n" +
				"sbatch: error: Batch job submission failed: Invalid qos specification\n"},
		"a missing output directory": {[]string{"-o", "/nonexistent/dir/out-%j"},
			"sbatch: error: output directory /nonexistent/dir does not exist or user root cannot write in it\n" +
				"sbatch: error: Batch job submission failed: Output directory does not exist or is not writable by the user\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, out, errs := lc.runTool("sbatch", append(tc.args, "--wrap=true")...)
			if code != 1 || out != "" || errs != tc.want {
				t.Errorf("sbatch %v: exit %d\nstdout %q\nstderr %q\nwant   %q", tc.args, code, out, errs, tc.want)
			}
			code, _, errs = lc.runTool("sbatch", append(tc.args, "--test-only", "--wrap=true")...)
			if code != 1 || !strings.Contains(errs, "allocation failure: ") {
				t.Errorf("sbatch --test-only %v: exit %d stderr %q", tc.args, code, errs)
			}
		})
	}
	if code, out, errs := lc.runTool("sbatch", "--wrap=true"); code != 0 || !strings.HasPrefix(out, "Submitted batch job ") {
		t.Errorf("a job that can run: exit %d %q %q", code, out, errs)
	}
}
