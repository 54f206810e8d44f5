package controller

import (
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// Engine is the scheduling state the controller drives: pkg/cluster with
// pkg/sched behind an adapter (package schedengine) in loam-ctld, a simple
// fake in tests. It is not safe for concurrent use: the controller calls it
// with its lock held. Pending means waiting to start; an array's pending
// record holds all its not yet started tasks.
type Engine interface {
	// NextID reserves a job id. Submissions and started array tasks share
	// the sequence, as in Slurm.
	NextID() uint32
	// SetNextID makes NextID never return less than next (after restart).
	SetNextID(next uint32)
	// PeekNextID is the id NextID would return, without reserving it
	// (show config's NEXT_JOB_ID).
	PeekNextID() uint32

	// Submit adds a pending job; Update replaces a pending job's spec.
	Submit(j *EngineJob) error
	Update(j *EngineJob) error
	// Cancel removes a pending job (for an array record, all its pending
	// tasks); CancelTasks removes some tasks of an array's pending record.
	Cancel(id uint32) error
	CancelTasks(id uint32, tasks []int) error
	// Hold keeps a pending job from starting; Release lets it start.
	Hold(id uint32, h Hold) error
	Release(id uint32, now time.Time) error

	// End frees a running job's resources; Requeue puts it back in the
	// queue (lostRun is compensated); Forget undoes a start whose launch
	// failed.
	End(id uint32, when time.Time) error
	Requeue(id uint32, when time.Time, lostRun time.Duration) error
	Forget(id uint32, when time.Time) error
	// DropNode takes a failed node out of a running --no-kill job's
	// allocation: the job keeps running on its other nodes (nokill.go).
	DropNode(id uint32, node string, when time.Time) error
	// Restore puts back a job that was running when the controller stopped.
	// A non-zero preemptDeadline says the job was being preempted: it is
	// inside its grace window until then.
	Restore(j *EngineJob, start time.Time, partition string, alloc []api.NodeAllocation, preemptDeadline time.Time) error

	// SetNodeState changes what the scheduler may use on a node.
	SetNodeState(name string, st NodeState) error
	// Cycle runs one scheduling pass at now and applies its plan: started
	// jobs hold their resources when it returns.
	Cycle(now time.Time) *CycleResult
	// Estimate says when and where j would start now, without keeping it.
	Estimate(j *EngineJob, now time.Time) (Estimate, error)
	// Reconfigure swaps in a new configuration, or changes nothing and
	// returns why not.
	Reconfigure(cfg *slurmconf.Config) error
}

// EngineFactory builds an Engine for a configuration.
type EngineFactory func(cfg *slurmconf.Config) (Engine, error)

// Hold is why a pending job may not start.
type Hold int

// Holds, in the order they show: an explicit hold wins over a dependency.
const (
	NotHeld Hold = iota
	HeldUser
	HeldAdmin
	HeldDependency
	HeldDependencyNever
)

// NodeState is what the scheduler may do with a node.
type NodeState int

// Node states for the scheduler.
const (
	NodeUp    NodeState = iota
	NodeDrain           // running jobs continue, nothing new starts
	NodeDown            // nothing runs or starts
)

// EngineJob is a job as the scheduler sees it.
type EngineJob struct {
	ID         uint32
	Req        *job.Request
	Partitions []string // candidates in the user's order
	Tenant     string   // the account
	User       string
	// Limit is the job's time limit; 0 takes the partition default.
	Limit   time.Duration
	Submit  time.Time
	Begin   time.Time
	Nice    int
	Hold    Hold
	Requeue bool
	// FixedPriority is an operator's pinned priority (0: computed).
	FixedPriority int64
	// SiteFactor is an operator's SiteFactor=, added to the priority.
	SiteFactor int64
	// ArrayTasks are the pending task indices of an array record, nil for
	// an ordinary job; Throttle is its %N (0: none).
	ArrayTasks []int
	Throttle   int
	Restarts   int
}

// CycleResult is what one scheduling pass decided.
type CycleResult struct {
	Now      time.Time
	Launches []Launch
	Preempts []Preempt
	// Pending has one entry per job that still waits.
	Pending      []PendingInfo
	Reservations []ReservationInfo
	Priorities   []PriorityInfo
	// Skipped explains plan entries the live state no longer allowed.
	Skipped []error
	// Fragmentation, Stats and ResvChanges summarize the plan for
	// metrics and history (metrics_cycle.go).
	Fragmentation float64
	Stats         CycleStats
	ResvChanges   []ResvChange
}

// Launch is a job (or array task) the pass started.
type Launch struct {
	// JobID is the running job's id; for an array task started from the
	// array's pending record it is a new id (or the array's own id for its
	// last task). FromID is the record it came from; 0 lets the controller
	// work it out (JobID when it holds that record, else ArrayJobID).
	JobID      uint32
	FromID     uint32
	ArrayJobID uint32
	TaskIndex  int // -1: not an array task
	Partition  string
	Alloc      []api.NodeAllocation
	Limit      time.Duration // 0: unlimited
}

// Preempt is a running job to stop for another.
type Preempt struct {
	JobID       uint32
	Beneficiary uint32
	Requeue     bool
	Grace       time.Duration
	Deadline    time.Time
	Reason      string // urgent, reclaim, deadlock
}

// PendingInfo is why a job still waits.
type PendingInfo struct {
	JobID     uint32
	Reason    job.Reason
	Desc      string
	EstStart  time.Time
	Position  int
	Partition string
	Priority  int64
	Factors   *api.PriorityFactors
}

// ReservationInfo is a reservation the scheduler holds for a blocked job.
type ReservationInfo struct {
	JobID        uint32
	Partition    string
	Created      time.Time
	PlannedStart time.Time
	Expires      time.Time
	Held         []api.NodeAllocation
	Awaiting     []api.NodeAllocation
}

// PriorityInfo is one priority change, for the audit.
type PriorityInfo struct {
	JobID    uint32
	Old, New int64
	Factors  api.PriorityFactors
	Fixed    bool // New is the job's pinned priority
}

// Estimate is where and when a job would start.
type Estimate struct {
	Start     time.Time
	Partition string
	Alloc     []api.NodeAllocation
	// Reason is set when the job cannot be placed at all.
	Reason job.Reason
}
