package schedtest

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/sched"
)

// Epoch is the instant scenarios start at; plans print times relative to it.
var Epoch = time.Date(2025, 1, 6, 0, 0, 0, 0, time.UTC)

// ID parses a job name: "j12" or "12". It panics on anything else: builders
// are for tests, and a typo should stop the test at once.
func ID(name string) sched.JobID {
	n, err := strconv.ParseUint(strings.TrimPrefix(name, "j"), 10, 32)
	if err != nil {
		panic(fmt.Sprintf("schedtest: job name %q is not j<number>", name))
	}
	return sched.JobID(n)
}

// Dur parses a duration ("4h", "90m", "1d" for 24h). It panics on bad input.
func Dur(s string) time.Duration {
	if strings.HasSuffix(s, "d") {
		n, err := strconv.Atoi(strings.TrimSuffix(s, "d"))
		if err == nil {
			return time.Duration(n) * 24 * time.Hour
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		panic(fmt.Sprintf("schedtest: bad duration %q", s))
	}
	return d
}

// JobBuilder builds a valid PendingJob: one GPU, one CPU, one hour, in
// partition "normal", tenant "a", user "u1", submitted at Epoch.
type JobBuilder struct{ j sched.PendingJob }

// Job starts a pending job named like "j1".
func Job(name string) *JobBuilder {
	return &JobBuilder{j: sched.PendingJob{ID: ID(name), Partitions: []string{"normal"}, Tenant: "a", User: "u1",
		Shape: sched.Shape{GPUs: 1, CPUs: 1}, Limit: time.Hour, Submit: Epoch, Eligible: Epoch, ArrayRoom: -1}}
}

func (b *JobBuilder) Nodes(n int) *JobBuilder { b.j.Shape.Nodes = n; return b }
func (b *JobBuilder) GPUs(n int) *JobBuilder  { b.j.Shape.GPUs, b.j.Shape.GPUsPerNode = n, 0; return b }
func (b *JobBuilder) GPUsPerNode(n int) *JobBuilder {
	b.j.Shape.GPUsPerNode, b.j.Shape.GPUs = n, 0
	return b
}
func (b *JobBuilder) CPUs(n int) *JobBuilder { b.j.Shape.CPUs, b.j.Shape.CPUsPerNode = n, 0; return b }
func (b *JobBuilder) CPUsPerNode(n int) *JobBuilder {
	b.j.Shape.CPUsPerNode, b.j.Shape.CPUs = n, 0
	return b
}
func (b *JobBuilder) Mem(mb int64) *JobBuilder { b.j.Shape.MemPerNode = mb; return b }
func (b *JobBuilder) MemPerCPU(mb int64) *JobBuilder {
	b.j.Shape.MemPerCPU = mb
	return b
}
func (b *JobBuilder) MemPerGPU(mb int64) *JobBuilder {
	b.j.Shape.MemPerGPU = mb
	return b
}
func (b *JobBuilder) Limit(d string) *JobBuilder { b.j.Limit = Dur(d); return b }
func (b *JobBuilder) Partition(names ...string) *JobBuilder {
	b.j.Partitions = names
	return b
}
func (b *JobBuilder) Tenant(t string) *JobBuilder { b.j.Tenant = t; return b }
func (b *JobBuilder) User(u string) *JobBuilder   { b.j.User = u; return b }

// Submitted sets submit and eligible time.
func (b *JobBuilder) Submitted(t time.Time) *JobBuilder {
	b.j.Submit, b.j.Eligible = t, t
	return b
}
func (b *JobBuilder) Begin(t time.Time) *JobBuilder        { b.j.Begin = t; return b }
func (b *JobBuilder) Nice(n int) *JobBuilder               { b.j.Nice = n; return b }
func (b *JobBuilder) SiteFactor(n int64) *JobBuilder       { b.j.SiteFactor = n; return b }
func (b *JobBuilder) QOS(p int) *JobBuilder                { b.j.QOSPrio = p; return b }
func (b *JobBuilder) Hold(h sched.HoldReason) *JobBuilder  { b.j.Hold = h; return b }
func (b *JobBuilder) PrevPriority(p int64) *JobBuilder     { b.j.PrevPriority = p; return b }
func (b *JobBuilder) LostRun(d string) *JobBuilder         { b.j.LostRun = Dur(d); return b }
func (b *JobBuilder) Exclusive() *JobBuilder               { b.j.Shape.Exclusive = true; return b }
func (b *JobBuilder) NodeList(n ...string) *JobBuilder     { b.j.Shape.NodeList = n; return b }
func (b *JobBuilder) Exclude(n ...string) *JobBuilder      { b.j.Shape.Exclude = n; return b }
func (b *JobBuilder) Features(f ...string) *JobBuilder     { b.j.Shape.Features = f; return b }
func (b *JobBuilder) GPUType(t string) *JobBuilder         { b.j.Shape.GPUType = t; return b }
func (b *JobBuilder) ReserveAfter(t time.Time) *JobBuilder { b.j.ReserveAfter = t; return b }
func (b *JobBuilder) Array(tasks, room int) *JobBuilder {
	b.j.ArrayTasks, b.j.ArrayRoom = tasks, room
	return b
}
func (b *JobBuilder) Shape(f func(*sched.Shape)) *JobBuilder    { f(&b.j.Shape); return b }
func (b *JobBuilder) Build() sched.PendingJob                   { return b.j }
func (b *JobBuilder) Ptr() *sched.PendingJob                    { j := b.j; return &j }
func (b *JobBuilder) Restarts(n int) *JobBuilder                { b.j.Restarts = n; return b }
func (b *JobBuilder) Eligible(t time.Time) *JobBuilder          { b.j.Eligible = t; return b }
func (b *JobBuilder) Limitless() *JobBuilder                    { b.j.Limit = 0; return b }
func (b *JobBuilder) Set(f func(*sched.PendingJob)) *JobBuilder { f(&b.j); return b }

// RunningBuilder builds a RunningJob started at Epoch with a one-hour
// limit, in partition "normal", tenant "a", user "u1", requeueable.
type RunningBuilder struct{ r sched.RunningJob }

// Running starts a running job named like "j5".
func Running(name string) *RunningBuilder {
	return &RunningBuilder{r: sched.RunningJob{ID: ID(name), Partition: "normal", Tenant: "a", User: "u1",
		Start: Epoch, Limit: time.Hour, Requeue: true, Priority: 1}}
}

func (b *RunningBuilder) Partition(p string) *RunningBuilder { b.r.Partition = p; return b }
func (b *RunningBuilder) Tenant(t string) *RunningBuilder    { b.r.Tenant = t; return b }
func (b *RunningBuilder) User(u string) *RunningBuilder      { b.r.User = u; return b }
func (b *RunningBuilder) Started(t time.Time) *RunningBuilder {
	b.r.Start = t
	return b
}
func (b *RunningBuilder) Limit(d string) *RunningBuilder   { b.r.Limit = Dur(d); return b }
func (b *RunningBuilder) Priority(p int64) *RunningBuilder { b.r.Priority = p; return b }
func (b *RunningBuilder) NoRequeue() *RunningBuilder       { b.r.Requeue = false; return b }

// Preempting marks the job inside a grace window ending at deadline.
func (b *RunningBuilder) Preempting(deadline time.Time) *RunningBuilder {
	b.r.Preempting, b.r.PreemptDeadline = true, deadline
	return b
}

// On allocates GPUs (and cpus CPUs, mem MB) on node; borrowed lists which
// of the GPUs are borrowed.
func (b *RunningBuilder) On(node string, cpus int, mem int64, gpus []int, borrowed ...int) *RunningBuilder {
	a := sched.NodeAlloc{Node: node, CPUs: cpus, MemMB: mem, GPUs: gpus}
	if len(borrowed) > 0 {
		a.Borrowed = make([]bool, len(gpus))
		for i, g := range gpus {
			for _, x := range borrowed {
				if g == x {
					a.Borrowed[i] = true
				}
			}
		}
	}
	b.r.Alloc = append(b.r.Alloc, a)
	return b
}
func (b *RunningBuilder) Build() sched.RunningJob { return b.r }

// NodesBuilder builds identical nodes: 8 GPUs, 64 CPUs, 512000 MB, up.
type NodesBuilder struct {
	names []string
	n     sched.Node
}

// Nodes starts nodes from a host list ("n[1-4]"). It panics on a bad list.
func Nodes(list string) *NodesBuilder {
	names, err := hostlist.Expand(list)
	if err != nil {
		panic(fmt.Sprintf("schedtest: host list %q: %v", list, err))
	}
	return &NodesBuilder{names: names, n: sched.Node{GPUs: 8, CPUs: 64, MemMB: 512000}}
}

func (b *NodesBuilder) GPUs(n int) *NodesBuilder              { b.n.GPUs = n; return b }
func (b *NodesBuilder) CPUs(n int) *NodesBuilder              { b.n.CPUs = n; return b }
func (b *NodesBuilder) Mem(mb int64) *NodesBuilder            { b.n.MemMB = mb; return b }
func (b *NodesBuilder) State(s sched.NodeState) *NodesBuilder { b.n.State = s; return b }
func (b *NodesBuilder) Features(f ...string) *NodesBuilder    { b.n.Features = f; return b }
func (b *NodesBuilder) GPUType(t string) *NodesBuilder        { b.n.GPUType = t; return b }
func (b *NodesBuilder) Weight(w int) *NodesBuilder            { b.n.Weight = w; return b }
func (b *NodesBuilder) TmpDisk(mb int64) *NodesBuilder        { b.n.TmpDiskMB = mb; return b }
func (b *NodesBuilder) Names() []string                       { return b.names }

// Build returns one Node per name.
func (b *NodesBuilder) Build() []sched.Node {
	out := make([]sched.Node, len(b.names))
	for i, name := range b.names {
		out[i] = b.n
		out[i].Name = name
		out[i].Features = append([]string(nil), b.n.Features...)
	}
	return out
}
