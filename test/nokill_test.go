//go:build integration

package test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestNoKillSurvivesNodeFailure: two -N2 jobs run on two real node
// daemons; the second node's daemon dies and the node goes DOWN after
// SlurmdTimeout. The -k job keeps running on its batch host, shown with
// one node as the peer's scontrol and squeue show it, and completes when
// its script ends, also after a restart of the controller; the job
// without -k ends NODE_FAIL, as before.
func TestNoKillSurvivesNodeFailure(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, CPUs: 2, SlurmdTimeout: 5}, "")
	noRequeue := func(noKill bool) func(*job.Request) {
		return func(r *job.Request) {
			no := false
			r.MinNodes, r.NodesSet, r.Requeue, r.NoKill = 2, true, &no, noKill
		}
	}
	kept := lc.submit(lc.script(gated("kept")+"; echo done > kept-out", noRequeue(true)))
	failed := lc.submit(lc.script(gated("failed"), noRequeue(false)))
	n1, n2 := clustertest.NodeName(0), clustertest.NodeName(1)
	for _, id := range []uint32{kept, failed} {
		j := lc.waitState(id, job.Running)
		if j.Nodes != "n[01-02]" || j.BatchHost != n1 {
			t.Fatalf("job %d runs on %q, batch host %q: want both nodes, %s first", id, j.Nodes, j.BatchHost, n1)
		}
	}

	lc.waitFile("running-kept", "")
	lc.waitFile("running-failed", "")
	lc.nodes[1].kill9()
	lc.waitJob(kept, "on one node", func(j api.Job) bool { return j.NodeCount == 1 })
	lc.waitState(failed, job.NodeFail)

	sid := fmt.Sprint(kept)
	tool := func(args ...string) string { t.Helper(); return mustTool(t, lc.c, lc.work, args[0], args[1:]...) }
	show := tool("scontrol", "show", "job", sid)
	for _, want := range []string{"JobState=RUNNING", "   ResizeTime=", "   NodeList=" + n1 + "\n",
		"   NumNodes=1 NumCPUs=1 NumTasks=1 ", "   TRES=cpu=1,mem="} {
		if !strings.Contains(show, want) {
			t.Errorf("scontrol show job lacks %q:\n%s", want, show)
		}
	}
	if !strings.Contains(show, ",node=1,") {
		t.Errorf("scontrol show job: TRES should count one node:\n%s", show)
	}
	if got, want := tool("squeue", "-h", "-j", sid, "-o", "%N %D %C %T"), n1+" 1 1 RUNNING\n"; got != want {
		t.Errorf("squeue = %q, want %q", got, want)
	}
	if nodes := tool("sinfo", "-h", "-n", n2, "-o", "%T"); !strings.HasPrefix(nodes, "down") {
		t.Errorf("sinfo %s = %q, want down", n2, nodes)
	}

	// A restarted controller keeps the job on its one node (R18).
	lc.d.Stop()
	lc.d.Restart()
	lc.cl = lc.d.Client()
	lc.waitJob(kept, "running on one node after a restart", func(j api.Job) bool {
		return j.JobState == job.Running && j.Nodes == n1 && j.NodeCount == 1
	})

	lc.touch("gate-kept")
	j := lc.waitState(kept, job.Completed)
	if j.ExitCode != (job.ExitCode{}) || j.Nodes != n1 {
		t.Errorf("ended -k job: exit %v nodes %q, want 0:0 on %s", j.ExitCode, j.Nodes, n1)
	}
	lc.waitFile("kept-out", "done\n")
}
