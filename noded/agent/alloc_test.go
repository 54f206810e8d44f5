package agent

import (
	"context"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
)

// TestAllocationOnlyNode: a node of a multi-node job other than the batch
// host holds the job's allocation (its cgroup) without a script until the
// controller ends the job there.
func TestAllocationOnlyNode(t *testing.T) {
	needRoot(t)
	h := startAgent(t, newCluster(t))
	req := h.job(61, "")
	req.Batch, req.Script = false, ""
	req.Nodes = append([]api.NodeAllocation{{Node: "node0", CPUs: 1}}, req.Nodes...)
	h.launch(req)
	h.startedJob(61)
	g := h.agent.iso
	if _, err := g.Load(h.agent.cgroupRoot + "/job_61"); err != nil {
		t.Fatalf("allocation cgroup: %v", err)
	}
	resp, err := h.cl.Ctld.Terminate(context.Background(), h.node.Addr, &api.TerminateRequest{JobID: 61, Reason: api.TerminateCancel, Grace: 1})
	if err != nil || resp.Unknown {
		t.Fatalf("terminate = %+v, %v", resp, err)
	}
	if ev := h.ended(61); ev.Kind != api.EventEnded || ev.ExitCode.String() != "0:0" {
		t.Errorf("end = %+v", ev)
	}
	if _, err := g.Load(h.agent.cgroupRoot + "/job_61"); err == nil {
		t.Error("allocation cgroup left behind")
	}
}
