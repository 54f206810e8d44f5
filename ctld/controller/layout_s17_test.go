package controller

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// TestS17RunningTasks: the task count of a running job, as the peer's
// scontrol show job prints NumTasks once the job has its nodes.
func TestS17RunningTasks(t *testing.T) {
	cases := map[string]struct {
		q              job.Request
		pending, nodes int
		want           int
	}{
		"-N1-2 given two nodes":        {job.Request{MinNodes: 1, MaxNodes: 2}, 1, 2, 2},
		"--gpus=12 over two nodes":     {job.Request{}, 1, 2, 2},
		"-n1 -N1-2 keeps its one task": {job.Request{NTasks: 1, MinNodes: 1, MaxNodes: 2}, 1, 2, 1},
		"--ntasks-per-node=4 on one":   {job.Request{NTasksPerNode: 4}, 4, 1, 4},
		"-n65 over three nodes":        {job.Request{NTasks: 65}, 65, 3, 65},
		// The peer: --gpus=16 --ntasks-per-node=8 (sbatch sends -n8) runs
		// 16 tasks on two nodes, -n4 --ntasks-per-node=4 --gpus=16 8,
		// -n16 --ntasks-per-node=8 --gpus=16 16, -n8 --ntasks-per-node=4
		// --gpus=24 on three nodes 12.
		"--gpus=16 --ntasks-per-node=8":      {job.Request{NTasks: 8, NTasksPerNode: 8, GPUs: gpus(16)}, 8, 2, 16},
		"-n4 --ntasks-per-node=4 --gpus=16":  {job.Request{NTasks: 4, NTasksPerNode: 4, GPUs: gpus(16)}, 4, 2, 8},
		"-n16 --ntasks-per-node=8 --gpus=16": {job.Request{NTasks: 16, NTasksPerNode: 8, GPUs: gpus(16)}, 16, 2, 16},
		"-n8 --ntasks-per-node=4 --gpus=24":  {job.Request{NTasks: 8, NTasksPerNode: 4, GPUs: gpus(24)}, 8, 3, 12},
		// Any --ntasks-per-node job: the peer's -n5 --ntasks-per-node=2
		// on 3 nodes shows 6, -n1 --ntasks-per-node=2 2, -N3-4
		// --ntasks-per-node=2 on 4 nodes 8.
		"-n5 --ntasks-per-node=2":   {job.Request{NTasks: 5, NTasksPerNode: 2}, 5, 3, 6},
		"-n1 --ntasks-per-node=2":   {job.Request{NTasks: 1, NTasksPerNode: 2}, 1, 1, 2},
		"-N3-4 --ntasks-per-node=2": {job.Request{MinNodes: 3, MaxNodes: 4, NTasksPerNode: 2}, 6, 4, 8},
	}
	got, want := map[string]int{}, map[string]int{}
	for name, tc := range cases {
		got[name], want[name] = runningTasks(&tc.q, tc.pending, tc.nodes), tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NumTasks (-want +got):\n%s", diff)
	}
}

// TestLaunchTasks: SLURM_NTASKS of the batch step, as the peer's jobs
// printed it: -n as given, else --ntasks-per-node on each node given.
func TestLaunchTasks(t *testing.T) {
	cases := map[string]struct {
		q     job.Request
		nodes int
		want  int
	}{
		"-n5 --ntasks-per-node=2 on 3":   {job.Request{NTasks: 5, NTasksPerNode: 2}, 3, 5},
		"-N3-4 --ntasks-per-node=2 on 4": {job.Request{MinNodes: 3, MaxNodes: 4, NTasksPerNode: 2}, 4, 8},
		"-N2-4 --ntasks-per-node=1 on 2": {job.Request{MinNodes: 2, MaxNodes: 4, NTasksPerNode: 1}, 2, 2},
		"-N2-4 alone sets none":          {job.Request{MinNodes: 2, MaxNodes: 4}, 4, 0},
	}
	got, want := map[string]int{}, map[string]int{}
	for name, tc := range cases {
		got[name], want[name] = launchTasks(&tc.q, tc.nodes), tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SLURM_NTASKS (-want +got):\n%s", diff)
	}
}

// TestS17SpreadJobPending: a pending --spread-job job may grow to a node
// a task, no more than its partition has, as the peer shows it
// (-n4 --spread-job: NumNodes=1-4; -n100 on its 40 nodes: 2-40; with -N
// the range stays -N's). The harness has two nodes.
func TestS17SpreadJobPending(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	type shown struct {
		Nodes, MaxNodes int
		Spread          bool
	}
	cases := map[string]struct {
		mod  func(*job.Request)
		want shown
	}{
		"-n1 --spread-job":     {func(r *job.Request) { r.NTasks = 1 }, shown{1, 1, true}},
		"--spread-job alone":   {func(r *job.Request) {}, shown{1, 0, true}},
		"-n2 --spread-job":     {func(r *job.Request) { r.NTasks = 2 }, shown{1, 2, true}},
		"-n4 --spread-job":     {func(r *job.Request) { r.NTasks = 4 }, shown{1, 2, true}},
		"-N1 -n4 --spread-job": {func(r *job.Request) { r.NTasks, r.MinNodes, r.MaxNodes, r.NodesSet = 4, 1, 1, true }, shown{1, 1, true}},
	}
	got, want := map[string]shown{}, map[string]shown{}
	for name, tc := range cases {
		id := h.mustSubmit(alice, simpleJob(func(r *job.Request) {
			r.Hold, r.SpreadJob = true, true
			tc.mod(r)
		}))
		j := h.job(fmt.Sprint(id))
		got[name], want[name] = shown{j.NodeCount, j.MaxNodes, j.SpreadJob}, tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pending --spread-job (-want +got):\n%s", diff)
	}
}

// TestS17TasksOfGPUTasks: with --gpus-per-task and --cpus-per-gpu a task
// is GPUs x CPUs per GPU, as for -c: the peer's -N2 -n4 --gpus-per-task=1
// --cpus-per-gpu=2 holds 6,2 CPUs, runs 3,1 tasks (SLURM_TASKS_PER_NODE)
// and pins CPU_IDs=0-3,32-33 and 0,32 on its idle 2x32-core nodes.
func TestS17TasksOfGPUTasks(t *testing.T) {
	q := job.Request{NTasks: 4, CPUsPerGPU: 2, GPUsPerTask: []resource.GRES{{Name: "gpu", Count: 1}}}
	if diff := cmp.Diff([]int{3, 1}, tasksPerNode(&q, cpusAlloc(6, 2))); diff != "" {
		t.Errorf("tasks per node (-want +got):\n%s", diff)
	}
	got := []string{
		job.FormatRanges(nodeCPUIDs(&q, make([]bool, 64), 2, 6, 8, 4)),
		job.FormatRanges(nodeCPUIDs(&q, make([]bool, 64), 2, 2, 8, 1)),
	}
	// -c2 keeps whole tasks on the first socket: -N2 -n4 -c2 pins 0-5;
	// with --gpus-per-task=1 too the gres filter keeps 8 cores a socket
	// for the node's 8 GPUs: -N2 -n8 -c2 pins 0-7,32-37 for seven tasks.
	c2 := job.Request{NTasks: 4, CPUsPerTask: 2}
	got = append(got, job.FormatRanges(nodeCPUIDs(&c2, make([]bool, 64), 2, 6, 8, 0)))
	c2.NTasks, c2.GPUsPerTask = 8, q.GPUsPerTask
	got = append(got, job.FormatRanges(nodeCPUIDs(&c2, make([]bool, 64), 2, 14, 8, 8)))
	if diff := cmp.Diff([]string{"0-3,32-33", "0,32", "0-5", "0-7,32-37"}, got); diff != "" {
		t.Errorf("CPU_IDs (-want +got):\n%s", diff)
	}
}

// TestS17MemPerGPUShownMemory: a --mem-per-gpu job shows the DefMemPerCPU
// while pending and no per-CPU memory once started, as the peer's
// scontrol show job does (MinMemoryCPU=1G pending, MinMemoryNode=0 after).
func TestS17MemPerGPUShownMemory(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	mem := int64(100)
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) {
		r.MemPerGPU = &mem
		r.GPUs = []resource.GRES{{Name: "gpu", Count: 1}}
	}))
	pending := h.job(fmt.Sprint(id)).MemoryPerCPU
	h.cycle()
	running := h.waitState(fmt.Sprint(id), job.Running).MemoryPerCPU
	type shown struct{ Pending, Running int64 }
	if diff := cmp.Diff(shown{h.c.confNow().conf.DefMemPerCPU, 0}, shown{pending, running}); diff != "" {
		t.Errorf("MemoryPerCPU (-want +got):\n%s", diff)
	}
}

// TestS17BlockDistributionCPUIDs: -m with a second level of block, or
// plane, pins the lowest free CPUs, as the peer shows on its idle 2x16
// cpu nodes (-n3 -m block:block and -m plane=2: CPU_IDs=0-2; -N2 -n6
// -m plane=2 holds 5 CPUs on the first node, 0-4); -m block and -m
// cyclic keep the default cyclic pick (-n3: 0-1,16).
func TestS17BlockDistributionCPUIDs(t *testing.T) {
	cases := map[string]struct {
		dist  string
		count int
		want  string
	}{
		"-n3 -m block:block":   {"block:block", 3, "0-2"},
		"-n3 -m cyclic:block":  {"cyclic:block", 3, "0-2"},
		"-n3 -m plane=2":       {"plane=2", 3, "0-2"},
		"-N2 -n6 -m plane=2":   {"plane=2", 5, "0-4"},
		"-n3 -m block":         {"block", 3, "0-1,16"},
		"-n3 -m block:cyclic":  {"block:cyclic", 3, "0-1,16"},
		"-n3 without -m":       {"", 3, "0-1,16"},
		"busy CPUs are passed": {"block:block", 3, "3-5"},
	}
	got, want := map[string]string{}, map[string]string{}
	for name, tc := range cases {
		used := make([]bool, 32)
		if name == "busy CPUs are passed" {
			used[0], used[1], used[2] = true, true, true
		}
		q := job.Request{NTasks: tc.count, Distribution: tc.dist}
		got[name], want[name] = job.FormatRanges(jobCPUIDs(&q, used, 2, tc.count)), tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CPU_IDs (-want +got):\n%s", diff)
	}
}

// TestMailUserDefaultsToTheUser: --mail-type without --mail-user mails
// the job's user, and scontrol shows that user, as slurmctld does (the
// peer's --mail-type=END job shows MailUser=root MailType=END).
func TestMailUserDefaultsToTheUser(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold, r.MailType = true, job.MailEnd }))
	j := h.job(fmt.Sprint(id))
	if j.MailType != "END" || j.MailUser == "" || j.MailUser != j.UserName {
		t.Errorf("MailUser=%q MailType=%q, want the job's user %q and END", j.MailUser, j.MailType, j.UserName)
	}
}
