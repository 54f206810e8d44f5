package controller

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// FIFO is a fake of the scheduling engine for the controller's tests:
// first come, first served, first fit on CPUs and GPUs, no reservations;
// preemptions are scripted (Preempt).
type FIFO struct {
	conf    *slurmconf.Config
	next    uint32
	nodes   []*node
	pending map[uint32]*EngineJob
	running map[uint32][]api.NodeAllocation
	specs   map[uint32]*EngineJob // what each running job was
	// arrayOf is the array each started task came from (its %throttle).
	arrayOf map[uint32]uint32
	// preempt lists victims for the next Cycle (Preempt).
	preempt []Preempt
	// Cycles counts the cycles run.
	Cycles int
}

type node struct {
	name  string
	state NodeState
	cpus  int
	mem   int64
	gpus  []bool
	used  int
	usedM int64
}

var _ Engine = (*FIFO)(nil)

// newFIFO implements EngineFactory.
func newFIFO(conf *slurmconf.Config) (Engine, error) {
	f := &FIFO{conf: conf, next: 1, pending: map[uint32]*EngineJob{}, running: map[uint32][]api.NodeAllocation{}, specs: map[uint32]*EngineJob{}}
	f.arrayOf = map[uint32]uint32{}
	f.setNodes(conf)
	return f, nil
}

func (f *FIFO) setNodes(conf *slurmconf.Config) {
	old := map[string]*node{}
	for _, n := range f.nodes {
		old[n.name] = n
	}
	f.nodes = nil
	for _, nc := range conf.Nodes {
		n := &node{name: nc.Name, state: NodeUp, cpus: nc.CPUs, mem: nc.RealMemory}
		for _, g := range nc.GRES {
			if g.Name == "gpu" {
				n.gpus = make([]bool, g.Count)
			}
		}
		if o := old[nc.Name]; o != nil {
			n.state, n.used, n.usedM = o.state, o.used, o.usedM
			copy(n.gpus, o.gpus)
		}
		f.nodes = append(f.nodes, n)
	}
}

// NextID implements Engine.
func (f *FIFO) NextID() uint32 { f.next++; return f.next - 1 }

// SetNextID implements Engine.
func (f *FIFO) SetNextID(next uint32) { f.next = max(f.next, next) }

// PeekNextID implements Engine.
func (f *FIFO) PeekNextID() uint32 { return f.next }

// Submit implements Engine.
func (f *FIFO) Submit(j *EngineJob) error {
	if f.pending[j.ID] != nil || f.running[j.ID] != nil {
		return fmt.Errorf("job %d exists", j.ID)
	}
	cp := *j
	cp.ArrayTasks = slices.Clone(j.ArrayTasks)
	f.pending[j.ID] = &cp
	f.next = max(f.next, j.ID+1)
	return nil
}

// Update implements Engine.
func (f *FIFO) Update(j *EngineJob) error {
	if f.pending[j.ID] == nil {
		return fmt.Errorf("job %d not pending", j.ID)
	}
	delete(f.pending, j.ID)
	return f.Submit(j)
}

// Cancel implements Engine.
func (f *FIFO) Cancel(id uint32) error {
	if f.pending[id] == nil {
		return fmt.Errorf("job %d not pending", id)
	}
	delete(f.pending, id)
	return nil
}

// CancelTasks implements Engine.
func (f *FIFO) CancelTasks(id uint32, tasks []int) error {
	j := f.pending[id]
	if j == nil {
		return fmt.Errorf("job %d not pending", id)
	}
	j.ArrayTasks = slices.DeleteFunc(j.ArrayTasks, func(t int) bool { return slices.Contains(tasks, t) })
	if len(j.ArrayTasks) == 0 {
		delete(f.pending, id)
	}
	return nil
}

// Hold implements Engine.
func (f *FIFO) Hold(id uint32, h Hold) error {
	j := f.pending[id]
	if j == nil {
		return fmt.Errorf("job %d not pending", id)
	}
	j.Hold = h
	return nil
}

// Release implements Engine.
func (f *FIFO) Release(id uint32, now time.Time) error { return f.Hold(id, NotHeld) }

// End implements Engine.
func (f *FIFO) End(id uint32, when time.Time) error {
	alloc, ok := f.running[id]
	if !ok {
		return fmt.Errorf("job %d not running", id)
	}
	f.free(alloc)
	delete(f.running, id)
	delete(f.specs, id)
	return nil
}

// Requeue implements Engine.
func (f *FIFO) Requeue(id uint32, when time.Time, lost time.Duration) error {
	spec := f.specs[id]
	if spec == nil {
		return fmt.Errorf("job %d not running", id)
	}
	return errors.Join(f.End(id, when), f.Submit(spec))
}

// Forget implements Engine.
func (f *FIFO) Forget(id uint32, when time.Time) error { return f.Requeue(id, when, 0) }

// DropNode implements Engine.
func (f *FIFO) DropNode(id uint32, node string, when time.Time) error {
	alloc, ok := f.running[id]
	i := slices.IndexFunc(alloc, func(a api.NodeAllocation) bool { return a.Node == node })
	if !ok || i < 0 || len(alloc) == 1 {
		return fmt.Errorf("job %d: cannot drop node %s", id, node)
	}
	f.free(alloc[i : i+1])
	f.running[id] = slices.Delete(slices.Clone(alloc), i, i+1)
	return nil
}

// Restore implements Engine.
func (f *FIFO) Restore(j *EngineJob, start time.Time, partition string, alloc []api.NodeAllocation, _ time.Time) error {
	f.take(alloc)
	f.running[j.ID] = alloc
	single := *j
	single.ArrayTasks = nil
	f.specs[j.ID] = &single
	f.next = max(f.next, j.ID+1)
	return nil
}

// SetNodeState implements Engine.
func (f *FIFO) SetNodeState(name string, st NodeState) error {
	for _, n := range f.nodes {
		if n.name == name {
			n.state = st
			return nil
		}
	}
	return fmt.Errorf("no node %s", name)
}

// Reconfigure implements Engine.
func (f *FIFO) Reconfigure(conf *slurmconf.Config) error {
	f.conf = conf
	f.setNodes(conf)
	return nil
}

// Preempt makes the next Cycle preempt victim for beneficiary.
func (f *FIFO) Preempt(victim, beneficiary uint32, requeue bool, grace time.Duration) {
	f.preempt = append(f.preempt, Preempt{JobID: victim, Beneficiary: beneficiary, Requeue: requeue, Grace: grace, Reason: "urgent"})
}

// Running reports whether job id holds resources.
func (f *FIFO) Running(id uint32) bool { _, ok := f.running[id]; return ok }

// Cycle implements Engine: pending jobs in id order, each on
// the first up node with enough free CPUs and GPUs; array records start
// their lowest task.
func (f *FIFO) Cycle(now time.Time) *CycleResult {
	f.Cycles++
	res := &CycleResult{Now: now, Preempts: f.preempt}
	f.preempt = nil
	ids := make([]uint32, 0, len(f.pending))
	for id := range f.pending {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	for pos, id := range ids {
		j := f.pending[id]
		if j.Hold != NotHeld || j.Begin.After(now) {
			pi := PendingInfo{JobID: id, Reason: holdReason(j, now), Position: pos + 1}
			if j.Hold == HeldDependency || j.Hold == HeldDependencyNever {
				pi.Priority = 1 // as the real engine: computed, not 0
			}
			res.Pending = append(res.Pending, pi)
			continue
		}
		for f.pending[id] != nil {
			if f.throttled(j) {
				res.Pending = append(res.Pending, PendingInfo{JobID: id, Reason: job.ReasonJobArrayTaskLimit, Position: pos + 1, Priority: 1})
				break
			}
			l, ok := f.place(j)
			if !ok {
				res.Pending = append(res.Pending, PendingInfo{JobID: id, Reason: job.ReasonResources, Position: pos + 1, Priority: max(j.FixedPriority, 1)})
				break
			}
			res.Launches = append(res.Launches, l)
		}
	}
	return res
}

func holdReason(j *EngineJob, now time.Time) job.Reason {
	switch j.Hold {
	case HeldUser:
		return job.ReasonJobHeldUser
	case HeldAdmin:
		return job.ReasonJobHeldAdmin
	case HeldDependency:
		return job.ReasonDependency
	case HeldDependencyNever:
		return job.ReasonDependencyNeverSatisfied
	}
	return job.ReasonBeginTime
}

// place starts j (or its lowest task) on the first node that fits.
func (f *FIFO) place(j *EngineJob) (Launch, bool) {
	cpus := max(j.Req.CPUsPerTask, 1) * max(j.Req.NTasks, 1)
	gpus := 0
	for _, g := range append(slices.Clone(j.Req.GRES), j.Req.GPUsPerNode...) {
		if g.Name == "gpu" {
			gpus += int(g.Count)
		}
	}
	if j.Req.MinNodes > 1 && j.ArrayTasks == nil && gpus == 0 {
		return f.placeNodes(j, max(cpus/j.Req.MinNodes, 1))
	}
	for _, n := range f.nodes {
		if n.state != NodeUp || n.cpus-n.used < cpus || free(n.gpus) < gpus {
			continue
		}
		a := api.NodeAllocation{Node: n.name, CPUs: cpus, Memory: 100 * int64(cpus)}
		for g := 0; g < len(n.gpus) && len(a.GPUs) < gpus; g++ {
			if !n.gpus[g] {
				a.GPUs = append(a.GPUs, g)
				a.Borrowed = append(a.Borrowed, false)
			}
		}
		alloc := []api.NodeAllocation{a}
		f.take(alloc)
		l := Launch{JobID: j.ID, TaskIndex: -1, Partition: j.Partitions[0], Alloc: alloc, Limit: j.Limit}
		if j.ArrayTasks != nil {
			l.ArrayJobID, l.TaskIndex = j.ID, j.ArrayTasks[0]
			j.ArrayTasks = j.ArrayTasks[1:]
			if len(j.ArrayTasks) > 0 {
				l.JobID = f.NextID()
			} else {
				delete(f.pending, j.ID)
			}
		} else {
			delete(f.pending, j.ID)
		}
		if l.ArrayJobID != 0 {
			f.arrayOf[l.JobID] = l.ArrayJobID
		}
		f.running[l.JobID] = alloc
		spec := *j
		spec.ID, spec.ArrayTasks = l.JobID, nil
		f.specs[l.JobID] = &spec
		return l, true
	}
	return Launch{}, false
}

// placeNodes starts a -N job without GPUs on the first -N up nodes with
// cpus free each, in node order (the first is the batch host).
func (f *FIFO) placeNodes(j *EngineJob, cpus int) (Launch, bool) {
	var alloc []api.NodeAllocation
	for _, n := range f.nodes {
		if len(alloc) < j.Req.MinNodes && n.state == NodeUp && n.cpus-n.used >= cpus {
			alloc = append(alloc, api.NodeAllocation{Node: n.name, CPUs: cpus, Memory: 100 * int64(cpus)})
		}
	}
	if len(alloc) < j.Req.MinNodes {
		return Launch{}, false
	}
	f.take(alloc)
	delete(f.pending, j.ID)
	f.running[j.ID] = alloc
	spec := *j
	f.specs[j.ID] = &spec
	return Launch{JobID: j.ID, TaskIndex: -1, Partition: j.Partitions[0], Alloc: alloc, Limit: j.Limit}, true
}

// throttled tells whether array j runs as many tasks as its %throttle.
func (f *FIFO) throttled(j *EngineJob) bool {
	if j.ArrayTasks == nil || j.Throttle <= 0 {
		return false
	}
	n := 0
	for id := range f.running {
		if f.arrayOf[id] == j.ID {
			n++
		}
	}
	return n >= j.Throttle
}

func free(gpus []bool) int {
	n := 0
	for _, b := range gpus {
		if !b {
			n++
		}
	}
	return n
}

func (f *FIFO) take(alloc []api.NodeAllocation) {
	for _, a := range alloc {
		for _, n := range f.nodes {
			if n.name == a.Node {
				n.used += a.CPUs
				n.usedM += a.Memory
				for _, g := range a.GPUs {
					if g < len(n.gpus) {
						n.gpus[g] = true
					}
				}
			}
		}
	}
}

func (f *FIFO) free(alloc []api.NodeAllocation) {
	for _, a := range alloc {
		for _, n := range f.nodes {
			if n.name == a.Node {
				n.used -= a.CPUs
				n.usedM -= a.Memory
				for _, g := range a.GPUs {
					if g < len(n.gpus) {
						n.gpus[g] = false
					}
				}
			}
		}
	}
}

// Estimate implements Engine: now on the first node that fits.
func (f *FIFO) Estimate(j *EngineJob, now time.Time) (Estimate, error) {
	single := *j
	single.ArrayTasks = nil
	l, ok := f.place(&single)
	if !ok {
		return Estimate{Reason: job.ReasonResources}, nil
	}
	f.free(l.Alloc)
	delete(f.running, l.JobID)
	delete(f.specs, l.JobID)
	return Estimate{Start: now, Partition: l.Partition, Alloc: l.Alloc}, nil
}
