package schedengine

import (
	"strings"
	"time"

	"github.com/loamhpc/loam/ctld/controller"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/cluster"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// Engine implements controller.Engine over pkg/cluster and pkg/sched.
type Engine struct {
	conf  *slurmconf.Config
	cl    *cluster.Cluster
	sched *sched.Scheduler
}

var _ controller.Engine = (*Engine)(nil)

// New builds the engine for conf; it matches controller.EngineFactory.
func New(conf *slurmconf.Config) (controller.Engine, error) {
	cl, err := cluster.New(cluster.SchedConfig(conf, sched.PolicyLoam), cluster.Nodes(conf))
	if err != nil {
		return nil, err
	}
	cl.SetLicenses(licenseTotals(conf)) // licenses.go
	return &Engine{conf: conf, cl: cl, sched: sched.New(cl.Config())}, nil
}

// NextID implements controller.Engine.
func (e *Engine) NextID() uint32 { return uint32(e.cl.NextID()) }

// SetNextID implements controller.Engine.
func (e *Engine) SetNextID(next uint32) { e.cl.SetNextID(sched.JobID(next)) }

// PeekNextID implements controller.Engine.
func (e *Engine) PeekNextID() uint32 { return uint32(e.cl.PeekNextID()) }

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
		GPUsPerTask: cluster.GPUsPerTask(j.Req), CPUsPerGPU: cluster.CPUsPerGPU(j.Req),
		Limit: j.Limit, Submit: j.Submit, Begin: j.Begin, Nice: j.Nice, Hold: sched.HoldReason(j.Hold),
		Requeue: j.Requeue, ArrayTasks: j.ArrayTasks, ArrayThrottle: j.Throttle, Reservation: j.Req.Reservation,
		Licenses: jobLicenses(j.Req), FixedPriority: j.FixedPriority, SiteFactor: j.SiteFactor, // licenses.go
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

// Update implements controller.Engine: the pending job (or an array's
// pending record, whatever its tasks that already run) takes the new spec
// and keeps what the scheduler learnt about it.
func (e *Engine) Update(j *controller.EngineJob) error {
	s, err := e.spec(j)
	if err != nil {
		return err
	}
	return e.cl.Update(s)
}

// Cancel implements controller.Engine.
func (e *Engine) Cancel(id uint32) error { return e.cl.Cancel(sched.JobID(id)) }

// CancelTasks implements controller.Engine: the tasks leave the array's
// pending record; its tasks that run are separate jobs and go on.
func (e *Engine) CancelTasks(id uint32, tasks []int) error {
	return e.cl.CancelTasks(sched.JobID(id), tasks)
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
func (e *Engine) End(id uint32, when time.Time) error { return e.cl.End(sched.JobID(id), when) }

// Requeue implements controller.Engine.
func (e *Engine) Requeue(id uint32, when time.Time, lostRun time.Duration) error {
	return e.cl.Requeue(sched.JobID(id), when, lostRun)
}

// Forget implements controller.Engine.
func (e *Engine) Forget(id uint32, when time.Time) error {
	return e.cl.Forget(sched.JobID(id), when)
}

// DropNode implements controller.Engine.
func (e *Engine) DropNode(id uint32, node string, when time.Time) error {
	return e.cl.DropNode(sched.JobID(id), node, when)
}

// Restore implements controller.Engine: the job runs again from its
// original start on its original allocation (an array task as a job of its
// own), whatever its nodes' states (their daemons have not registered
// yet). A victim caught in its grace window stays one, so that the next
// cycle does not preempt again for the same beneficiary.
func (e *Engine) Restore(j *controller.EngineJob, start time.Time, partition string, alloc []api.NodeAllocation, preemptDeadline time.Time) error {
	single := *j
	single.ArrayTasks, single.Throttle = nil, 0
	s, err := e.spec(&single)
	if err != nil {
		return err
	}
	if err := e.cl.Restore(s, start, partition, toSched(alloc)); err != nil {
		return err
	}
	if preemptDeadline.IsZero() {
		return nil
	}
	return e.cl.RestorePreempting(s.ID, preemptDeadline)
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
	e.cl.SetLicenses(licenseTotals(conf)) // licenses.go
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
// reason ("ReqNodeNotAvail") and its description, which is the whole text,
// as Slurm's state_desc is (squeue %R and scontrol Reason= print it).
// Slurm's text for too few nodes up in the partition is a description of
// Reason=Resources.
func reason(r sched.Reason) (job.Reason, string) {
	s := string(r)
	if r == sched.ReasonNodesUnavailable {
		return job.ReasonResources, s
	}
	if i := strings.Index(s, ", "); i >= 0 {
		return job.Reason(s[:i]), s
	}
	return job.Reason(s), ""
}
