package controller

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// twoNodeJob is a -N2 job that does not requeue; noKill adds -k.
func twoNodeJob(noKill bool) job.Request {
	return simpleJob(func(r *job.Request) {
		no := false
		r.MinNodes, r.NodesSet, r.Requeue, r.NoKill = 2, true, &no, noKill
	})
}

func (h *harness) setNodeDown(node string) {
	h.t.Helper()
	var out api.NodeUpdateResponse
	if err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: node, State: "DOWN", Reason: "test"}, &out); err != nil {
		h.t.Fatalf("down %s: %v", node, err)
	}
}

// waitLaunched waits until the batch node's start event reached the
// controller: Running is set at the start order, Launched on that event.
func (h *harness) waitLaunched(id uint32) {
	h.t.Helper()
	clustertest.Eventually(h.t, 10*time.Second, fmt.Sprintf("job %d to be launched", id), func() error {
		h.c.mu.RLock()
		defer h.c.mu.RUnlock()
		if r := h.c.jobs[id]; r == nil || !r.St.Launched {
			return fmt.Errorf("not launched")
		}
		return nil
	})
}

func terminationsOf(terms []api.TerminateRequest, id uint32) int {
	n := 0
	for _, tr := range terms {
		if tr.JobID == id {
			n++
		}
	}
	return n
}

// TestNoKillKeepsJobOnOtherNode: as slurmctld with kill_on_node_fail off, a
// -k job whose second node goes DOWN keeps running on its batch host with
// NodeList, NumNodes, NumCPUs, NumTasks and TRES of one node and a
// ResizeTime (the peer: -N2 -k, then scontrol update state=down of the
// second node); the batch host hears nothing, the scheduler no longer
// counts the lost node for it, and its end is COMPLETED with no cleanup
// sent to the lost node. The same job without -k ends NODE_FAIL.
func TestNoKillKeepsJobOnOtherNode(t *testing.T) {
	h := newHarness(t)
	n1, n2 := h.node("n01"), h.node("n02")
	kept := h.mustSubmit(alice, twoNodeJob(true))
	failed := h.mustSubmit(alice, twoNodeJob(false))
	h.cycle()
	n1.Launch(t, kept, 5*time.Second)
	n1.Launch(t, failed, 5*time.Second)
	before := h.waitState(fmt.Sprint(kept), job.Running)
	if before.Nodes != "n[01-02]" || before.BatchHost != "n01" || before.NodeCount != 2 {
		t.Fatalf("before: nodes %q batch host %q count %d", before.Nodes, before.BatchHost, before.NodeCount)
	}
	h.waitLaunched(kept) // a job still starting ends on a node failure even with -k, as in Slurm

	h.setNodeDown("n02")

	j := h.job(fmt.Sprint(kept))
	if j.JobState != job.Running || j.Nodes != "n01" || j.NodeCount != 1 || j.CPUs != 1 || j.Tasks != 1 {
		t.Errorf("-k job after its node failed: %s nodes %q count %d cpus %d tasks %d, want RUNNING on n01, 1, 1, 1",
			j.JobState, j.Nodes, j.NodeCount, j.CPUs, j.Tasks)
	}
	if j.ResizeTime != h.clock.Now().Unix() {
		t.Errorf("ResizeTime %d, want now %d", j.ResizeTime, h.clock.Now().Unix())
	}
	if !strings.Contains(j.TRESAllocStr, "cpu=1,") || !strings.Contains(j.TRESAllocStr, "node=1") {
		t.Errorf("TRES %q, want one node's", j.TRESAllocStr)
	}
	if got := h.eng.running[kept]; len(got) != 1 || got[0].Node != "n01" {
		t.Errorf("scheduler's allocation of the -k job: %+v, want n01 only", got)
	}
	if j := h.job(fmt.Sprint(failed)); j.JobState != job.NodeFail {
		t.Errorf("job without -k: %s, want NODE_FAIL", j.JobState)
	}
	h.c.inflight.Wait()
	if n := terminationsOf(n1.Terminations(), kept); n != 0 {
		t.Errorf("the -k job's batch host got %d terminations, want none", n)
	}

	if err := n1.End(kept, job.ExitCode{}); err != nil {
		t.Fatal(err)
	}
	end := h.waitState(fmt.Sprint(kept), job.Completed)
	if end.Nodes != "n01" || end.ExitCode != (job.ExitCode{}) {
		t.Errorf("ended: nodes %q exit %v, want n01 0:0", end.Nodes, end.ExitCode)
	}
	h.c.inflight.Wait()
	if n := terminationsOf(n2.Terminations(), kept); n != 0 {
		t.Errorf("the lost node got %d terminations for the -k job, want none", n)
	}
}

// TestNoKillBatchHostFails: a -k job whose batch host fails ends as
// without -k (NODE_FAIL when it may not requeue): its script is gone.
func TestNoKillBatchHostFails(t *testing.T) {
	h := newHarness(t)
	n1, _ := h.node("n01"), h.node("n02")
	id := h.mustSubmit(alice, twoNodeJob(true))
	h.cycle()
	n1.Launch(t, id, 5*time.Second)
	h.waitState(fmt.Sprint(id), job.Running)
	h.setNodeDown("n01")
	if j := h.job(fmt.Sprint(id)); j.JobState != job.NodeFail || j.Nodes != "n[01-02]" {
		t.Errorf("-k job whose batch host failed: %s on %q, want NODE_FAIL on n[01-02]", j.JobState, j.Nodes)
	}
}
