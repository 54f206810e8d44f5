package schedengine

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/loamhpc/loam/ctld/controller"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/cluster"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// ErrUnsupported is returned for changes pkg/cluster cannot make yet.
var ErrUnsupported = errors.New("not supported by the scheduling state yet")

// Engine implements controller.Engine over pkg/cluster and pkg/sched.
type Engine struct {
	conf  *slurmconf.Config
	cl    *cluster.Cluster
	sched *sched.Scheduler
	// arrays counts, per array job id, the tasks that run or pend on their
	// own (requeued, forgotten): pkg/cluster keeps the array's bookkeeping
	// while any exist, so its pending record cannot be resubmitted.
	arrays map[uint32]int
	taskOf map[uint32]uint32
}

var _ controller.Engine = (*Engine)(nil)

// New builds the engine for conf; it matches controller.EngineFactory.
func New(conf *slurmconf.Config) (controller.Engine, error) {
	cl, err := cluster.New(cluster.SchedConfig(conf, sched.PolicyLoam), cluster.Nodes(conf))
	if err != nil {
		return nil, err
	}
	return &Engine{conf: conf, cl: cl, sched: sched.New(cl.Config()),
		arrays: map[uint32]int{}, taskOf: map[uint32]uint32{}}, nil
}

// NextID implements controller.Engine.
func (e *Engine) NextID() uint32 { return uint32(e.cl.NextID()) }

// SetNextID implements controller.Engine: it draws ids until the next one
// is at least next (pkg/cluster has no setter).
func (e *Engine) SetNextID(next uint32) {
	if next <= 1 {
		return
	}
	for uint32(e.cl.NextID()) < next-1 {
	}
}

// spec converts a controller job for pkg/cluster.
func (e *Engine) spec(j *controller.EngineJob) (cluster.JobSpec, error) {
	var part *slurmconf.Partition
	if len(j.Partitions) > 0 {
		part, _ = e.conf.Partition(j.Partitions[0])
	}
	shape, err := cluster.ShapeOf(j.Req, e.conf, part)
	if err != nil {
		return cluster.JobSpec{}, err
	}
	return cluster.JobSpec{
		ID: sched.JobID(j.ID), Partitions: j.Partitions, Tenant: j.Tenant, User: j.User, Shape: shape,
		Limit: j.Limit, Submit: j.Submit, Begin: j.Begin, Nice: j.Nice, Hold: sched.HoldReason(j.Hold),
		Requeue: j.Requeue, ArrayTasks: j.ArrayTasks, ArrayThrottle: j.Throttle,
	}, nil
}

// Submit implements controller.Engine.
func (e *Engine) Submit(j *controller.EngineJob) error {
	s, err := e.spec(j)
	if err != nil {
		return err
	}
	return e.cl.Submit(s)
}

// Update implements controller.Engine by cancelling and resubmitting the
// pending job under the same id.
func (e *Engine) Update(j *controller.EngineJob) error {
	s, err := e.spec(j)
	if err != nil {
		return err
	}
	if j.ArrayTasks != nil && e.arrays[j.ID] > 0 {
		return fmt.Errorf("job %d: changing an array whose tasks have started: %w", j.ID, ErrUnsupported)
	}
	if err := e.cl.Cancel(sched.JobID(j.ID)); err != nil {
		return err
	}
	return e.cl.Submit(s)
}

// Cancel implements controller.Engine.
func (e *Engine) Cancel(id uint32) error {
	e.taskGone(id)
	return e.cl.Cancel(sched.JobID(id))
}

// CancelTasks implements controller.Engine: the array's pending record is
// resubmitted without the tasks.
func (e *Engine) CancelTasks(id uint32, tasks []int) error {
	info, ok := e.cl.Job(sched.JobID(id))
	if !ok || info.Pending == nil {
		return fmt.Errorf("job %d: %w", id, cluster.ErrUnknownJob)
	}
	if e.arrays[id] > 0 {
		return fmt.Errorf("job %d: cancelling some pending tasks while others run: %w", id, ErrUnsupported)
	}
	spec := info.Spec
	var keep []int
	for _, t := range spec.ArrayTasks {
		if !contains(tasks, t) {
			keep = append(keep, t)
		}
	}
	spec.ArrayTasks = keep
	spec.Hold = info.Pending.Hold
	if err := e.cl.Cancel(sched.JobID(id)); err != nil {
		return err
	}
	if len(keep) == 0 {
		return nil
	}
	return e.cl.Submit(spec)
}

func contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// Hold implements controller.Engine.
func (e *Engine) Hold(id uint32, h controller.Hold) error {
	return e.cl.Hold(sched.JobID(id), sched.HoldReason(h))
}

// Release implements controller.Engine.
func (e *Engine) Release(id uint32, now time.Time) error {
	return e.cl.Release(sched.JobID(id), now)
}

// End implements controller.Engine.
func (e *Engine) End(id uint32, when time.Time) error {
	e.taskGone(id)
	return e.cl.End(sched.JobID(id), when)
}

// Requeue implements controller.Engine.
func (e *Engine) Requeue(id uint32, when time.Time, lostRun time.Duration) error {
	return e.cl.Requeue(sched.JobID(id), when, lostRun)
}

// Forget implements controller.Engine.
func (e *Engine) Forget(id uint32, when time.Time) error {
	return e.cl.Forget(sched.JobID(id), when)
}

// taskGone forgets an array task that ended.
func (e *Engine) taskGone(id uint32) {
	if a, ok := e.taskOf[id]; ok {
		delete(e.taskOf, id)
		if e.arrays[a]--; e.arrays[a] <= 0 {
			delete(e.arrays, a)
		}
	}
}

// Restore implements controller.Engine: the job is submitted and started
// at its original start time on its original allocation, with its nodes
// taken as up for the moment (their daemons have not registered yet).
func (e *Engine) Restore(j *controller.EngineJob, start time.Time, partition string, alloc []api.NodeAllocation) error {
	single := *j
	single.ArrayTasks, single.Throttle = nil, 0
	s, err := e.spec(&single)
	if err != nil {
		return err
	}
	s.Hold = sched.NotHeld
	if err := e.cl.Submit(s); err != nil {
		return err
	}
	restoreStates := e.nodesUp(alloc)
	defer restoreStates()
	plan := &sched.Plan{Now: start, Starts: []sched.Start{{Job: s.ID, Partition: partition, Alloc: toSched(alloc)}}}
	_, err = e.cl.ApplyPlan(plan)
	return err
}

// nodesUp marks alloc's nodes up and returns how to put their states back.
func (e *Engine) nodesUp(alloc []api.NodeAllocation) func() {
	prev := map[string]sched.NodeState{}
	for _, n := range e.cl.Nodes() {
		prev[n.Name] = n.State
	}
	for _, a := range alloc {
		e.cl.SetNodeState(a.Node, sched.NodeUp)
	}
	return func() {
		for _, a := range alloc {
			if st, ok := prev[a.Node]; ok {
				e.cl.SetNodeState(a.Node, st)
			}
		}
	}
}

// SetNodeState implements controller.Engine.
func (e *Engine) SetNodeState(name string, st controller.NodeState) error {
	_, err := e.cl.SetNodeState(name, sched.NodeState(st))
	return err
}

// Reconfigure implements controller.Engine.
func (e *Engine) Reconfigure(conf *slurmconf.Config) error {
	if err := e.cl.Reconfigure(cluster.SchedConfig(conf, sched.PolicyLoam), cluster.Nodes(conf)); err != nil {
		return err
	}
	e.conf, e.sched = conf, sched.New(e.cl.Config())
	return nil
}

func toSched(alloc []api.NodeAllocation) []sched.NodeAlloc {
	out := make([]sched.NodeAlloc, len(alloc))
	for i, a := range alloc {
		out[i] = sched.NodeAlloc{Node: a.Node, CPUs: a.CPUs, MemMB: a.Memory, GPUs: a.GPUs, Borrowed: a.Borrowed}
	}
	return out
}

func fromSched(alloc []sched.NodeAlloc) []api.NodeAllocation {
	out := make([]api.NodeAllocation, len(alloc))
	for i, a := range alloc {
		out[i] = api.NodeAllocation{Node: a.Node, CPUs: a.CPUs, Memory: a.MemMB, GPUs: a.GPUs, Borrowed: a.Borrowed}
	}
	return out
}

// reason splits sched's "ReqNodeNotAvail, UnavailableNodes:n1" into the
// reason and its description.
func reason(r sched.Reason) (job.Reason, string) {
	s := string(r)
	if i := strings.Index(s, ", "); i >= 0 {
		return job.Reason(s), s[i+2:]
	}
	return job.Reason(s), ""
}
