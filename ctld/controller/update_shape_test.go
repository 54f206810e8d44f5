package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestUpdateJobShape: update job's size changes answer as Slurm 22.05's
// controller does (NumNodes=0 and a maximum under the minimum: "Node
// count specification invalid"; NumTasks=0: "Task count specification
// invalid"; a priority for a held job: "Job is in held state, pending
// scheduler release"; ArrayTaskThrottle on a plain job: ignored), and
// the accepted ones show in the job's record.
func TestUpdateJobShape(t *testing.T) {
	h := newHarness(t)
	id := fmt.Sprint(h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true })))
	upd := func(u api.JobUpdate) api.Code {
		return updateCode(t, h, 0, id, u)
	}
	cases := []struct {
		name string
		u    api.JobUpdate
		want api.Code
	}{
		{"no nodes", api.JobUpdate{MinNodes: ptr(0), MaxNodes: ptr(0)}, api.CodeInvalidNodeCount},
		{"a maximum under the minimum", api.JobUpdate{MinNodes: ptr(3), MaxNodes: ptr(2)}, api.CodeInvalidNodeCount},
		{"more nodes than the partition has", api.JobUpdate{MinNodes: ptr(1000), MaxNodes: ptr(0)}, api.CodeInvalidNodeCount},
		{"no tasks", api.JobUpdate{NumTasks: ptr(0)}, api.CodeBadTaskCount},
		{"a priority while held", api.JobUpdate{Priority: ptr(int64(100))}, api.CodeJobHeld},
		{"a throttle on a plain job", api.JobUpdate{ArrayMaxTasks: ptr(2)}, ""},
		{"a node range", api.JobUpdate{MinNodes: ptr(1), MaxNodes: ptr(2)}, ""},
		{"two tasks", api.JobUpdate{NumTasks: ptr(2)}, ""},
		{"memory per CPU", api.JobUpdate{MemPerCPU: ptr(int64(3000))}, ""},
	}
	for _, tc := range cases {
		if got := upd(tc.u); got != tc.want {
			t.Errorf("%s: error %q, want %q", tc.name, got, tc.want)
		}
	}
	j := h.job(id)
	if j.NodeCount != 1 || j.MaxNodes != 2 || j.Tasks != 2 || j.MemoryPerCPU != 3000 {
		t.Errorf("after the updates: nodes %d-%d tasks %d mem/cpu %d, want 1-2, 2, 3000",
			j.NodeCount, j.MaxNodes, j.Tasks, j.MemoryPerCPU)
	}
	// The peer: NumNodes=N keeps the maximum (a -N2 -n2 job updated to
	// NumNodes=1 shows 1-2) and refuses a minimum above it; a task count
	// under the nodes rises to them (-n1 to NumNodes=2: NumTasks=2).
	if got := upd(api.JobUpdate{MinNodes: ptr(3)}); got != api.CodeInvalidNodeCount {
		t.Errorf("NumNodes=3 over the maximum of 2: %q", got)
	}
	if got := upd(api.JobUpdate{MinNodes: ptr(2)}); got != "" {
		t.Fatalf("NumNodes=2: %q", got)
	}
	if j := h.job(id); j.NodeCount != 2 || j.MaxNodes != 2 || j.Tasks != 2 {
		t.Errorf("NumNodes=2: nodes %d-%d tasks %d, want 2-2 and 2", j.NodeCount, j.MaxNodes, j.Tasks)
	}
	if got := upd(api.JobUpdate{MinNodes: ptr(2), NumTasks: ptr(1)}); got != "" {
		t.Fatalf("NumNodes=2 NumTasks=1: %q", got)
	}
	if got := upd(api.JobUpdate{MinCPUsNode: ptr(4)}); got != "" {
		t.Fatalf("MinCPUsNode=4: %q", got)
	}
	if j := h.job(id); j.NodeCount != 2 || j.Tasks != 2 || j.MinCPUsNode != 4 {
		t.Errorf("NumNodes=2 NumTasks=1 MinCPUsNode=4: nodes %d tasks %d MinCPUsNode %d, want 2, 2, 4", j.NodeCount, j.Tasks, j.MinCPUsNode)
	}
	if got := upd(api.JobUpdate{MemPerNode: ptr(int64(1000))}); got != "" {
		t.Fatalf("memory per node: %q", got)
	}
	if j := h.job(id); j.MemoryPerCPU != 0 || j.MemoryPerNode != 1000 {
		t.Errorf("memory per node replaces per CPU: per CPU %d per node %d", j.MemoryPerCPU, j.MemoryPerNode)
	}
}

// TestUpdateNumCPUs follows the peer's held -n4 job: NumCPUs=N sets its
// CPUs whatever the tasks need, N-M shows as a range, a most under the
// least is "CPU count specification invalid", and MinCPUsNode=K recounts
// the CPUs as K a node (NumCPUs=1 for K=1). (That the job then runs on
// that many CPUs is cluster.ShapeOf's part: this harness's engine
// counts tasks.)
func TestUpdateNumCPUs(t *testing.T) {
	h := newHarness(t)
	id := fmt.Sprint(h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.NTasks = 4; r.Hold = true })))
	var got []string
	upd := func(u api.JobUpdate) {
		code := updateCode(t, h, 0, id, u)
		j := h.job(id)
		got = append(got, fmt.Sprintf("%s %d-%d", code, j.CPUs, j.MaxCPUs))
	}
	upd(api.JobUpdate{NumCPUs: ptr(1)})
	upd(api.JobUpdate{NumCPUs: ptr(4), MaxCPUs: ptr(8)})
	upd(api.JobUpdate{NumCPUs: ptr(2), MaxCPUs: ptr(1)})
	upd(api.JobUpdate{MinCPUsNode: ptr(3)})
	upd(api.JobUpdate{MinCPUsNode: ptr(1)})
	want := []string{" 1-0", " 4-8", "ESLURM_INVALID_CPU_COUNT 4-8", " 3-8", " 1-8"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestUpdateRunningNodeCount: a running job's own node count is
// accepted and changes nothing; a larger one is not supported and 0 is
// an invalid count, as on the peer.
func TestUpdateRunningNodeCount(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	raw := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, raw, 5*time.Second)
	id := fmt.Sprint(raw)
	upd := func(n int) api.Code {
		u := api.JobUpdate{MinNodes: ptr(n), MaxNodes: ptr(0)}
		return updateCode(t, h, 0, id, u)
	}
	if got := upd(1); got != "" {
		t.Errorf("its own node count: %q", got)
	}
	if got := upd(2); got != api.CodeNotSupported {
		t.Errorf("two nodes: %q, want %q", got, api.CodeNotSupported)
	}
	if got := upd(0); got != api.CodeInvalidNodeCount {
		t.Errorf("no nodes: %q, want %q", got, api.CodeInvalidNodeCount)
	}
	rs := results(t, h, 0, api.PathUpdate, api.UpdateRequest{JobIDs: []string{id}, Update: api.JobUpdate{NumTasks: ptr(2)}})
	if got := firstErr(rs); got != api.CodeJobNotPending {
		t.Errorf("tasks of a running job: %q, want %q", got, api.CodeJobNotPending)
	}
}

// TestShrinkRunningJob follows the peer: a job running on gpu[003,010,
// 020] (batch host gpu003) updated to NumNodes=2 keeps gpu[003,010],
// shows NumNodes=2, NumCPUs=2 and a ResizeTime, and keeps running; its
// steps with tasks on the node it left are killed. Here the batch host is
// the last node, and it stays.
func TestShrinkRunningJob(t *testing.T) {
	h := newHarness(t)
	nodes := []*clustertest.FakeNode{h.node("n01"), h.node("n02")}
	raw := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.MinNodes, r.MaxNodes, r.NodesSet = 2, 2, true }))
	h.cycle()
	id := fmt.Sprint(raw)
	j := h.waitState(id, job.Running)
	if j.NodeCount != 2 {
		t.Fatalf("job on %q, want two nodes", j.Nodes)
	}
	batch := j.BatchHost
	for _, n := range nodes {
		if n.Name == batch {
			n.Launch(t, raw, 5*time.Second)
		}
	}
	if got := updateCode(t, h, alice, id, api.JobUpdate{MinNodes: ptr(1), MaxNodes: ptr(0)}); got != "" {
		t.Fatalf("NumNodes=1 of a running job: %q", got)
	}
	j = h.job(id)
	got := fmt.Sprintf("%s nodes=%s count=%d resized=%t", j.JobState, j.Nodes, j.NodeCount, j.ResizeTime != 0)
	if want := fmt.Sprintf("RUNNING nodes=%s count=1 resized=true", batch); got != want {
		t.Errorf("after NumNodes=1: %s, want %s", got, want)
	}
	// The node it left takes a new job.
	other := "n01"
	if batch == "n01" {
		other = "n02"
	}
	next := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.NodeList = other }))
	h.cycle()
	h.waitState(fmt.Sprint(next), job.Running)
}

// TestShrinkRunningJobToNodes follows the peer: NodeList= of a running
// job shrinks it to those nodes, which must be its own and keep its batch
// host ("Invalid node name specified": gpu[010,020] of a job whose batch
// host is gpu003), and an empty list is refused.
func TestShrinkRunningJobToNodes(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	h.node("n02")
	raw := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.MinNodes, r.MaxNodes, r.NodesSet = 2, 2, true }))
	h.cycle()
	id := fmt.Sprint(raw)
	j := h.waitState(id, job.Running)
	other := "n01"
	if j.BatchHost == "n01" {
		other = "n02"
	}
	upd := func(list string) api.Code { return updateCode(t, h, alice, id, api.JobUpdate{RequiredNodes: &list}) }
	got := []api.Code{upd(other), upd(""), upd("n03"), upd(j.BatchHost)}
	want := []api.Code{api.CodeInvalidNodeName, api.CodeInvalidNodeName, api.CodeInvalidNodeName, ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if j := h.job(id); j.Nodes != j.BatchHost || j.NodeCount != 1 || j.JobState != job.Running {
		t.Errorf("after NodeList=%s: %s on %q (%d nodes)", j.BatchHost, j.JobState, j.Nodes, j.NodeCount)
	}
}
