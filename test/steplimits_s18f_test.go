//go:build integration

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/loamhpc/loam/test/clustertest"
)

// stepLimitsProlog is a PrologSlurmctld that fails (exit 1) for jobs
// named fail* and takes two seconds for jobs named slow*.
const stepLimitsProlog = `#!/bin/sh
case "$SLURM_JOB_NAME" in
fail*) exit 1;;
slow*) sleep 2;;
esac
exit 0
`

// TestStepLimitsLive: with real daemons and slurm.conf's KillOnBadExit=1,
// MaxTasksPerNode=1, MaxStepCount=2 and a PrologSlurmctld, srun and
// salloc print what the peer's (Slurm 22.05.8) print and exit as they do.
func TestStepLimitsLive(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "prolog.sh")
	if err := os.WriteFile(script, []byte(stepLimitsProlog), 0o755); err != nil {
		t.Fatal(err)
	}
	extra := fmt.Sprintf("KillOnBadExit=1\nMaxTasksPerNode=1\nMaxStepCount=2\nPrologSlurmctld=%s\n", script)
	lc := startLive(t, clustertest.Spec{Nodes: 2, CPUs: 4, Extra: extra}, "")
	granted := regexp.MustCompile(`Granted job allocation (\d+)`)

	code, _, stderr := lc.runTool("salloc", "-J", "fail-salloc", "-w", "n01", "true")
	m := granted.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("salloc of a failing prolog: %q, no grant", stderr)
	}
	want := fmt.Sprintf("salloc: Granted job allocation %[1]s\nsalloc: Waiting for resource configuration\n"+
		"salloc: PrologSlurmctld failed, job killed\nsalloc: Job allocation %[1]s has been revoked.\n"+
		"salloc: error: Job allocation %[1]s has been revoked\n", m[1])
	if code != 1 || stderr != want {
		t.Errorf("salloc of a failing prolog: exit %d, stderr\n%s\nwant exit 1, stderr\n%s", code, stderr, want)
	}

	code, _, stderr = lc.runTool("srun", "-J", "fail-srun", "-w", "n01", "true")
	want = "srun: PrologSlurmctld failed, job killed\nsrun: error: Nodes n01 are still not ready\n" +
		"srun: error: Something is wrong with the boot of the nodes.\n"
	if code != 1 || stderr != want {
		t.Errorf("srun of a failing prolog: exit %d, stderr\n%s\nwant exit 1, stderr\n%s", code, stderr, want)
	}

	code, _, stderr = lc.runTool("salloc", "-J", "slow", "-w", "n01", "true")
	for _, line := range []string{"salloc: Waiting for resource configuration\nsalloc: Nodes n01 are ready for job\n",
		"salloc: Relinquishing job allocation"} {
		if code != 0 || !strings.Contains(stderr, line) {
			t.Errorf("salloc of a slow prolog: exit %d, stderr\n%s\nwant exit 0 and %q", code, stderr, line)
		}
	}

	bad := `if [ $SLURM_PROCID = 1 ]; then exit 3; fi; sleep 20`
	code, _, stderr = lc.runTool("srun", "-N2", "-n2", "sh", "-c", bad)
	if code != 143 || !strings.Contains(stderr, "srun: error: n02: task 1: Exited with exit code 3\n"+
		"srun: launch/slurm: _step_signal: Terminating StepId=") {
		t.Errorf("KillOnBadExit=1: exit %d, stderr\n%s\nwant 143 and the step terminated", code, stderr)
	}
	code, _, stderr = lc.runTool("srun", "-K0", "-N2", "-n2", "sh", "-c", strings.Replace(bad, "20", "1", 1))
	if code != 3 || strings.Contains(stderr, "Terminating") {
		t.Errorf("-K0: exit %d, stderr\n%s\nwant 3 and the step left alone", code, stderr)
	}

	code, _, stderr = lc.runTool("srun", "-N1", "-n2", "true")
	if code != 1 || !regexp.MustCompile(`^srun: error: Unable to create step for job \d+: Task count specification invalid\n$`).MatchString(stderr) {
		t.Errorf("MaxTasksPerNode=1, 2 tasks on a node: exit %d, stderr %q", code, stderr)
	}

	srun := filepath.Join(clustertest.Bin(t), "srun")
	code, stdout, stderr := lc.runTool("salloc", "-N1", "sh", "-c",
		fmt.Sprintf("for i in 1 2 3; do %s true; echo step $i rc=$?; done", srun))
	if code != 0 || stdout != "step 1 rc=0\nstep 2 rc=0\nstep 3 rc=1\n" ||
		!regexp.MustCompile(`srun: error: Unable to create step for job \d+: Step limit reached for this job\n`).MatchString(stderr) {
		t.Errorf("MaxStepCount=2, three steps: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
