package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
)

// TestHeldSubmitShape: the node count and TRES slurmctld shows for jobs
// submitted held, which it never tried to place. With -c above 1 the
// node count is its pack_job guess (the tasks over the tasks the largest
// node holds, plus one when they do not divide: the peer, on 64-CPU
// nodes, shows -n1 -c2 as 2 nodes, -n1 -c33 as 1); TRES count the nodes
// asked for, not those shown (held -n65 and -n4 --ntasks-per-node=2 are
// NumNodes=2 with node=1). The harness's nodes have 8 CPUs, 8 cores.
func TestHeldSubmitShape(t *testing.T) {
	type shape struct {
		Nodes int
		TRES  string
	}
	cases := map[string]struct {
		n, cpt, tpn, tpc int
		held             bool
		want             shape
	}{
		"held -n1 -c2":                  {n: 1, cpt: 2, held: true, want: shape{2, "cpu=2,mem=2G,node=1,billing=2"}},
		"held -n2 -c4 (fills a node)":   {n: 2, cpt: 4, held: true, want: shape{1, "cpu=8,mem=8G,node=1,billing=8"}},
		"held -n3 -c4":                  {n: 3, cpt: 4, held: true, want: shape{2, "cpu=12,mem=12G,node=1,billing=12"}},
		"held -c2 without -n":           {cpt: 2, held: true, want: shape{1, "cpu=2,mem=2G,node=1,billing=2"}},
		"held -n4 --ntasks-per-node=2":  {n: 4, tpn: 2, held: true, want: shape{2, "cpu=4,mem=4G,node=1,billing=4"}},
		"held -n12 --ntasks-per-core=2": {n: 12, tpc: 2, held: true, want: shape{1, "cpu=12,mem=12G,node=1,billing=12"}},
		"held -n12 (over one node)":     {n: 12, held: true, want: shape{2, "cpu=12,mem=12G,node=1,billing=12"}},
	}
	h := newHarness(t)
	h.node("n01")
	h.node("n02")
	got, want := map[string]shape{}, map[string]shape{}
	for name, tc := range cases {
		id := h.mustSubmit(alice, simpleJob(func(r *job.Request) {
			r.Hold, r.NTasks, r.CPUsPerTask, r.NTasksPerNode, r.NTasksPerCore = tc.held, tc.n, tc.cpt, tc.tpn, tc.tpc
			mem := int64(1024)
			r.MemPerCPU = &mem
		}))
		j := h.job(fmt.Sprint(id))
		got[name] = shape{j.NodeCount, j.TRESReqStr}
		want[name] = tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("held shape (-want +got):\n%s", diff)
	}
}

// TestPendingGPUNodes: a pending job's node count covers its GPU total
// over the largest node (the peer, on 8-GPU nodes, shows --gpus=12 as 2
// nodes and --gpus=20 as 3), but not for a job submitted held, which
// slurmctld never tried to place (held --gpus=16 is 1 node), nor with
// -N. The harness's nodes have 4 GPUs.
func TestPendingGPUNodes(t *testing.T) {
	cases := map[string]struct {
		gpus, minNodes int
		held           bool
		want           int
	}{
		"--gpus=8":      {gpus: 8, want: 2},
		"--gpus=5":      {gpus: 5, want: 2},
		"--gpus=4":      {gpus: 4, want: 1},
		"held --gpus=8": {gpus: 8, held: true, want: 1},
		"-N1 --gpus=4":  {gpus: 4, minNodes: 1, want: 1},
		"-N2 --gpus=8":  {gpus: 8, minNodes: 2, want: 2},
	}
	h := newHarness(t)
	h.node("n01")
	h.node("n02")
	got, want := map[string]int{}, map[string]int{}
	for name, tc := range cases {
		id := h.mustSubmit(alice, simpleJob(func(r *job.Request) {
			r.Hold, r.GPUs = tc.held, gpus(int64(tc.gpus))
			r.MinNodes, r.NodesSet = tc.minNodes, tc.minNodes > 0
			begin := time.Now().Add(time.Hour) // pending, not held
			r.Begin = &begin
		}))
		got[name], want[name] = h.job(fmt.Sprint(id)).NodeCount, tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pending NumNodes (-want +got):\n%s", diff)
	}
}

// TestPlacedNodes: the node count slurmctld's submit-time test placement
// gives a pending job, as the peer shows it on its own shape (32-CPU 125G
// and 64-CPU 500G nodes in one partition): the smallest nodes first until
// they hold the tasks, a -N range's top, and nothing for a job submitted
// held, one that fits a node, or one with -N alone.
func TestPlacedNodes(t *testing.T) {
	cs := admissionState(t) // 4 GPU nodes of 64 CPUs and 500G, 2 CPU nodes of 32 and 125G, DefMemPerCPU=1000
	c := &Controller{}
	c.conf.Store(cs)
	mem := func(mb int64) *int64 { return &mb }
	cases := map[string]struct {
		q    job.Request
		held bool
		want int
	}{
		"-n65: two 32-CPU nodes, then one more":       {q: job.Request{NTasks: 65}, want: 3},
		"-n100":                                       {q: job.Request{NTasks: 100}, want: 3},
		"-n65 -C gpu: the 64-CPU nodes only":          {q: job.Request{NTasks: 65, Features: []string{"gpu"}}, want: 2},
		"-n65 --mem-per-cpu=8000: 16 a CPU node":      {q: job.Request{NTasks: 65, MemPerCPU: mem(8000)}, want: 3},
		"-n20 -c4: 8 and 16 tasks' room":              {q: job.Request{NTasks: 20, CPUsPerTask: 4}, want: 3},
		"-n32 fits the first node":                    {q: job.Request{NTasks: 32}, want: 0},
		"-N1-3 -n2: the range's top within the tasks": {q: job.Request{NTasks: 2, MinNodes: 1, MaxNodes: 3, NodesSet: true}, want: 2},
		"-N1-2: a task a node":                        {q: job.Request{MinNodes: 1, MaxNodes: 2, NodesSet: true}, want: 2},
		"-N2 -n65: -N decides":                        {q: job.Request{NTasks: 65, MinNodes: 2, MaxNodes: 2, NodesSet: true}, want: 0},
		"held -n65: never tried":                      {q: job.Request{NTasks: 65, Hold: true}, held: true, want: 0},
		"-n65 --gpus=1: GPUs decide":                  {q: job.Request{NTasks: 65, GPUs: gpus(1)}, want: 0},
	}
	got, want := map[string]int{}, map[string]int{}
	for name, tc := range cases {
		q := tc.q
		r := &jobRecord{Req: &q, St: jobStatus{Partitions: []string{"normal"}, Partition: "normal"}}
		if tc.held {
			r.St.Hold = HeldUser
		}
		got[name], want[name] = c.placedNodes(r), tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("placed nodes (-want +got):\n%s", diff)
	}
}
