//go:build integration

package test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// freezeJob makes job id's processes unkillable for real: it moves them
// into a child of the job's v1 freezer group and freezes that child on
// its own, so the freeze, SIGKILL, thaw of the job's kill leaves them
// frozen (a frozen task cannot die). They die once the test thaws them.
func freezeJob(t *testing.T, lc *liveCluster, id uint32) {
	t.Helper()
	dirs, _ := filepath.Glob(fmt.Sprintf("/sys/fs/cgroup/freezer/%s/job_%d", cgroupRoot(lc.c.Dir, "n01"), id))
	if len(dirs) != 1 {
		t.Fatalf("job %d's freezer group: found %v", id, dirs)
	}
	stuck := filepath.Join(dirs[0], "stuck")
	if err := os.Mkdir(stuck, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.WriteFile(filepath.Join(stuck, "freezer.state"), []byte("THAWED"), 0) })
	procs, err := os.ReadFile(filepath.Join(dirs[0], "cgroup.procs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pid := range strings.Fields(string(procs)) {
		if err := os.WriteFile(filepath.Join(stuck, "cgroup.procs"), []byte(pid), 0); err != nil {
			t.Fatalf("move pid %s: %v", pid, err)
		}
	}
	if err := os.WriteFile(filepath.Join(stuck, "freezer.state"), []byte("FROZEN"), 0); err != nil {
		t.Fatal(err)
	}
}

// TestUnkillableStep: a cancelled job whose processes outlive SIGKILL by
// UnkillableStepTimeout ends CANCELLED all the same, with slurmstepd's
// STEPD TERMINATED line in its output; UnkillableStepProgram ran as root
// with slurmstepd's variables, and the node is drained with
// Reason="Kill task failed" by root, as on the peer.
func TestUnkillableStep(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "unkillable.sh")
	body := fmt.Sprintf("#!/bin/sh\n{ /usr/bin/id -u; /usr/bin/env; } > %s/ran-$SLURM_JOB_ID\n", dir)
	if err := os.WriteFile(prog, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	extra := fmt.Sprintf("UnkillableStepTimeout=1\nUnkillableStepProgram=%s\n", prog)
	lc := startLive(t, clustertest.Spec{Nodes: 1, Extra: extra}, "")

	id := lc.submit(lc.script("echo $$ > pid-$SLURM_JOB_ID; sleep 300"))
	lc.waitFile(fmt.Sprint("pid-", id), "\n")
	freezeJob(t, lc, id)
	if _, err := lc.cl.Cancel(context.Background(), &api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(id)}}}); err != nil {
		t.Fatal(err)
	}
	if j := lc.waitState(id, job.Cancelled); j.ExitCode != (job.ExitCode{}) {
		t.Errorf("exit code %s, want 0:0", j.ExitCode)
	}
	lc.waitFile(fmt.Sprintf("slurm-%d.out", id), fmt.Sprintf("error: *** JOB %d STEPD TERMINATED ON ", id))
	if out := lc.file(fmt.Sprintf("slurm-%d.out", id)); !strings.Contains(out, " DUE TO JOB NOT ENDING WITH SIGNALS ***\n") {
		t.Errorf("output %q lacks slurmstepd's line", out)
	}
	checkUnkillableProgram(t, filepath.Join(dir, fmt.Sprint("ran-", id)), id, "4294967291")
	waitKillTaskFailed(t, lc.cl)
}

// checkUnkillableProgram: UnkillableStepProgram ran as root with the job
// and step ids slurmstepd gives it (its test script writes its uid and
// environment to path).
func checkUnkillableProgram(t *testing.T, path string, id uint32, step string) {
	t.Helper()
	ran, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("UnkillableStepProgram did not run: %v", err)
	}
	for _, want := range []string{"0\n", fmt.Sprintf("SLURM_JOB_ID=%d\n", id), "SLURM_STEP_ID=" + step + "\n", "SLURM_STEPID=" + step + "\n"} {
		if !strings.Contains(string(ran), want) {
			t.Errorf("UnkillableStepProgram's uid and environment %q lack %q", ran, want)
		}
	}
}

// waitKillTaskFailed waits until the first node is drained "Kill task
// failed" by root, as slurmctld drains it.
func waitKillTaskFailed(t *testing.T, cl *client.Client) {
	t.Helper()
	clustertest.Eventually(t, nodedWait, "node drained", func() error {
		resp, err := cl.Nodes(context.Background(), &api.NodeQuery{})
		if err != nil {
			return err
		}
		n := resp.Nodes[0]
		if !strings.Contains(strings.Join(n.StateFlags, "+"), api.FlagDrain) || n.Reason != "Kill task failed" || n.ReasonUser != "root" {
			return fmt.Errorf("node %s: %s+%v reason %q by %q, want drained: Kill task failed by root", n.Name, n.State, n.StateFlags, n.Reason, n.ReasonUser)
		}
		return nil
	})
}
