//go:build integration

package test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loamhpc/loam/noded/nodedtest"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// nodePrologBody is a node Prolog and Epilog in one: it dumps its
// environment to DIR/CONTEXT-JOBID; a prolog fails (exit 3) while DIR/fail
// exists, and an epilog waits for DIR/gate-JOBID while DIR/hold exists.
const nodePrologBody = `#!/bin/sh
/usr/bin/env > %[1]s/$SLURM_SCRIPT_CONTEXT-$SLURM_JOB_ID
if [ "$SLURM_SCRIPT_CONTEXT" = prolog_slurmd ]; then
	[ -e %[1]s/fail ] && exit 3
	exit 0
fi
if [ -e %[1]s/hold ]; then
	while [ ! -e %[1]s/gate-$SLURM_JOB_ID ]; do /bin/sleep 0.1; done
fi
exit 0
`

// TestNodePrologLiveS18A: with real daemons, the node Prolog runs as root
// before the batch script with slurmd's environment, the Epilog after it
// with the exit codes while the job shows COMPLETING, and a failing
// prolog drains the node (Reason=Prolog error) and requeues the job held
// (Restarts=1, "launch failed requeued held"), as on the peer.
func TestNodePrologLiveS18A(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "node.sh")
	if err := os.WriteFile(script, []byte(fmt.Sprintf(nodePrologBody, dir)), 0o755); err != nil {
		t.Fatal(err)
	}
	extra := fmt.Sprintf("Prolog=%[1]s\nEpilog=%[1]s\n", script)
	lc := startLive(t, clustertest.Spec{Nodes: 1, Extra: extra}, "")
	touch := func(name string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	holds := func(file string, want ...string) {
		t.Helper()
		lc.eventually(file+" written", func() error {
			data, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				return err
			}
			for _, w := range want {
				if !strings.Contains(string(data), w+"\n") {
					return fmt.Errorf("%s lacks %q: %s", file, w, data)
				}
			}
			return nil
		})
	}

	// The prolog ran before the script: the script sees its file.
	okID := lc.submit(lc.script(fmt.Sprintf("test -e %s/prolog_slurmd-$SLURM_JOB_ID", dir)))
	lc.waitState(okID, job.Completed)
	holds(fmt.Sprint("prolog_slurmd-", okID), fmt.Sprint("SLURM_JOB_ID=", okID),
		"SLURM_SCRIPT_CONTEXT=prolog_slurmd", "SLURM_JOB_USER="+lc.job(okID).UserName)
	holds(fmt.Sprint("epilog_slurmd-", okID), "SLURM_JOB_EXIT_CODE2=0:0", "SLURM_SCRIPT_CONTEXT=epilog_slurmd")

	touch("hold")
	slowID := lc.submit(lc.script("exit 2"))
	lc.waitState(slowID, job.Completing)
	touch(fmt.Sprint("gate-", slowID))
	if j := lc.waitState(slowID, job.Failed); j.ExitCode != (job.ExitCode{Status: 2}) {
		t.Errorf("after its epilog: exit %s, want 2:0", j.ExitCode)
	}
	holds(fmt.Sprint("epilog_slurmd-", slowID), "SLURM_JOB_EXIT_CODE=512")

	touch("fail")
	failID := lc.submit(lc.script("true"))
	j := lc.waitJob(failID, "requeued held", func(j api.Job) bool { return j.Restarts == 1 && j.JobState == job.Pending })
	if j.StateReason != job.ReasonJobHeldAdmin || j.StateDescription != "launch failed requeued held" {
		t.Errorf("after its prolog failed: %s (%s), want JobHeldAdmin (launch failed requeued held)", j.StateReason, j.StateDescription)
	}
	resp, err := lc.cl.Nodes(context.Background(), &api.NodeQuery{})
	if err != nil {
		t.Fatal(err)
	}
	n := resp.Nodes[0]
	if !strings.Contains(strings.Join(n.StateFlags, "+"), api.FlagDrain) || n.Reason != "Prolog error" || n.ReasonUser != "root" {
		t.Errorf("node %s: %s+%v reason %q by %q, want drained: Prolog error by root", n.Name, n.State, n.StateFlags, n.Reason, n.ReasonUser)
	}
}

// TestNodePrologNodedRestartS18A: a node daemon killed (kill -9) while a
// job's prolog runs loses nothing: the prolog runs on to its end, the job
// runs once after it, its epilog once, and the restarted daemon reports
// its start and end once each.
func TestNodePrologNodedRestartS18A(t *testing.T) {
	cl := nodedCluster(t, nodedtest.ClusterSpec{})
	dir := t.TempDir()
	script := filepath.Join(dir, "node.sh")
	body := fmt.Sprintf(`#!/bin/sh
echo $SLURM_JOB_ID >> %[1]s/$SLURM_SCRIPT_CONTEXT
[ "$SLURM_SCRIPT_CONTEXT" = prolog_slurmd ] || exit 0
while [ ! -e %[1]s/gate ]; do /bin/sleep 0.05; done
`, dir)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(cl.ConfPath, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprintf(f, "Prolog=%[1]s\nEpilog=%[1]s\n", script); err != nil {
		t.Fatal(err)
	}
	f.Close()

	p := startNoded(t, cl, 0)
	req := batch(t, cl.Nodes[0], 701, "echo ran")
	p.launch(req)
	waitForFile(t, filepath.Join(dir, "prolog_slurmd"))
	p.kill9()
	touch(t, filepath.Join(dir, "gate"))
	startNoded(t, cl, 0)
	if ev := ended(t, cl, 701); ev.ExitCode.String() != "0:0" {
		t.Errorf("job whose prolog outlived its daemon: %+v", ev)
	}
	if out := output(t, req); out != "ran\n" {
		t.Errorf("output %q, want the script's one run", out)
	}
	for _, ctx := range []string{"prolog_slurmd", "epilog_slurmd"} {
		if data, _ := os.ReadFile(filepath.Join(dir, ctx)); string(data) != "701\n" {
			t.Errorf("%s runs: %q, want one for job 701", ctx, data)
		}
	}
	counts := map[string]int{}
	for _, ev := range cl.Ctld.Events() {
		counts[string(ev.Kind)+"/"+itoa(ev.JobID)]++
	}
	for _, k := range []string{"started/701", "ended/701"} {
		if counts[k] != 1 {
			t.Errorf("%s applied %d times, want 1 (all: %v)", k, counts[k], counts)
		}
	}
}
