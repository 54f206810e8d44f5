//go:build integration

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// unkillableStepScript runs a step whose task leaves a child behind
// (child.pid) and ends once the gate opens; the job ends at gate2.
const unkillableStepScript = `#!/bin/bash
#SBATCH -o out.txt
unset LOAM_CONF
srun -n1 bash -c 'sleep 300 & echo $! > child.pid; while [ ! -e gate ]; do sleep 0.1; done; echo task-done'
echo rc=$?
while [ ! -e gate2 ]; do sleep 0.1; done
`

// freezeInStep makes pid unkillable for real: it moves it into a child
// of step stepID's freezer group and freezes that child on its own (see
// freezeJob). The returned thaw kills and thaws it.
func freezeInStep(t *testing.T, c *clustertest.Cluster, id uint32, stepID int, pid string) (thaw func()) {
	t.Helper()
	dir := fmt.Sprintf("/sys/fs/cgroup/freezer/%s/job_%d/step_%d", cgroupRoot(c.Dir, "n01"), id, stepID)
	stuck := filepath.Join(dir, "stuck")
	if err := os.Mkdir(stuck, 0o755); err != nil {
		t.Fatal(err)
	}
	thaw = func() {
		var n int
		if _, err := fmt.Sscan(pid, &n); err == nil {
			_ = syscall.Kill(n, syscall.SIGKILL)
		}
		_ = os.WriteFile(filepath.Join(stuck, "freezer.state"), []byte("THAWED"), 0)
	}
	t.Cleanup(thaw)
	if err := os.WriteFile(filepath.Join(stuck, "cgroup.procs"), []byte(pid), 0); err != nil {
		t.Fatalf("move pid %s: %v", pid, err)
	}
	if err := os.WriteFile(filepath.Join(stuck, "freezer.state"), []byte("FROZEN"), 0); err != nil {
		t.Fatal(err)
	}
	return thaw
}

// TestUnkillableSrunStep: a step's task ends but leaves a process that
// outlives SIGKILL; after UnkillableStepTimeout the step process runs
// UnkillableStepProgram with the step's id, srun shows slurmstepd's
// "STEP J.S STEPD TERMINATED ... DUE TO JOB NOT ENDING WITH SIGNALS" line
// and exits with its task's status, and the node is drained "Kill task
// failed" by root, as slurmstepd does for a step.
func TestUnkillableSrunStep(t *testing.T) {
	progDir := sharedDir(t)
	prog := filepath.Join(progDir, "unkillable.sh")
	body := fmt.Sprintf("#!/bin/sh\n{ /usr/bin/id -u; /usr/bin/env; } > %s/ran-$SLURM_JOB_ID.$SLURM_STEP_ID\n", progDir)
	if err := os.WriteFile(prog, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	extra := fmt.Sprintf("UnkillableStepTimeout=1\nUnkillableStepProgram=%s\n", prog)
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 2, Extra: extra})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, unkillableStepScript, nil)
	var pid string
	clustertest.Eventually(t, nodedWait, "the task's child", func() error {
		data, err := os.ReadFile(filepath.Join(dir, "child.pid"))
		if pid = strings.TrimSpace(string(data)); err != nil || pid == "" {
			return fmt.Errorf("child.pid: %q %v", data, err)
		}
		return nil
	})
	thaw := freezeInStep(t, s.c, id, 0, pid)
	if err := os.WriteFile(filepath.Join(dir, "gate"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	line := fmt.Sprintf("slurmstepd-n01: error: *** STEP %d.0 STEPD TERMINATED ON n01 AT ", id)
	clustertest.Eventually(t, nodedWait, "srun's end", func() error {
		out, _ := os.ReadFile(filepath.Join(dir, "out.txt"))
		if !strings.Contains(string(out), "rc=") {
			return fmt.Errorf("out.txt holds %q", out)
		}
		return nil
	})
	out, _ := os.ReadFile(filepath.Join(dir, "out.txt"))
	if !strings.HasPrefix(string(out), "task-done\n"+line) || !strings.HasSuffix(string(out), " DUE TO JOB NOT ENDING WITH SIGNALS ***\nrc=0\n") {
		t.Errorf("out.txt = %q, want the task's line, slurmstepd's and rc=0", out)
	}
	checkUnkillableProgram(t, filepath.Join(progDir, fmt.Sprintf("ran-%d.0", id)), id, "0")
	waitKillTaskFailed(t, s.d.Client())
	thaw()
	if err := os.WriteFile(filepath.Join(dir, "gate2"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s.waitJob(t, id, job.Completed, nodedWait)
}
