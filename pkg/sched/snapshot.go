package sched

import (
	"time"

	"github.com/loamhpc/loam/pkg/job"
)

// JobID is the controller's job id. A pending array is one job; each task that
// starts gets its own id from the caller (as in Slurm).
type JobID uint32

// Snapshot is the cluster at one instant: the only input of Cycle besides
// Config. Slices are in the caller's order; Cycle never depends on it for
// anything but tie-breaking by JobID, so callers need not sort.
type Snapshot struct {
	Now          time.Time
	Nodes        []Node
	Running      []RunningJob
	Pending      []PendingJob
	Reservations []Reservation
	// AdminReservations are administrators' advance reservations
	// (advresv.go); nil in traces.
	AdminReservations []AdminReservation
	// Usage is decayed GPU-second usage per tenant and per user, maintained
	// by the caller with DecayUsage (it depends on time, so it lives with the
	// caller's clock, not in the core).
	Usage []Usage
	// Licenses is how many of each license are free at Now: slurm.conf's
	// totals less what running jobs hold (licenses.go); nil when the
	// cluster has none.
	Licenses map[string]int
}

// NodeState is the scheduler's view of a node.
type NodeState int

const (
	NodeUp       NodeState = iota
	NodeDrain              // running jobs continue; nothing new starts
	NodeDown               // nothing runs or starts
	NodeReserved           // reserved by an admin reservation: skipped
)

// Node is a compute node's capacity. What is in use follows from RunningJob
// allocations.
type Node struct {
	Name     string
	State    NodeState
	CPUs     int
	MemMB    int64
	GPUs     int
	GPUType  string
	Features []string
	Weight   int // lower weights are preferred, as in Slurm
	// TmpDiskMB is slurm.conf's TmpDisk: a job's --tmp is compared with
	// it, never consumed.
	TmpDiskMB int64
}

// NodeAlloc is what one job holds on one node.
type NodeAlloc struct {
	Node  string
	CPUs  int
	MemMB int64
	GPUs  []int // GPU indices on the node
	// Borrowed marks which of GPUs (same order) are borrowed from another
	// tenant's quota rather than owned.
	Borrowed []bool
}

// RunningJob holds resources now.
type RunningJob struct {
	ID        JobID
	Partition string
	Tenant    string
	User      string
	Priority  int64
	Start     time.Time
	// Limit is the time limit; Start+Limit is when the resources free at the
	// latest. 0 means unlimited.
	Limit time.Duration
	Alloc []NodeAlloc
	// Requeue says whether preemption requeues (else cancels) this job.
	Requeue bool
	// ExclusiveUser: no other user's job may share its nodes (userexcl.go).
	ExclusiveUser bool
	// Preempting is set while the job is inside its grace window after a
	// preemption: its resources free by PreemptDeadline and it must not be
	// chosen again.
	Preempting      bool
	PreemptDeadline time.Time
	// LostRun is run time the job lost to earlier preemptions. Under
	// PolicyLoam a job that has lost work is protected from preemption for
	// that much longer than PreemptExemptTime after it restarts, so the
	// same job is not preempted again and again.
	LostRun time.Duration
}

// HoldReason is why the caller keeps a job from being considered at all.
type HoldReason int

const (
	NotHeld HoldReason = iota
	HeldUser
	HeldAdmin
	HeldDependency      // waiting on a dependency
	HeldDependencyNever // dependency can never be satisfied
)

// Shape is what a job asks for, already normalized by the caller (defaults
// applied, per-task values multiplied out).
type Shape struct {
	// Nodes is the exact node count; 0 lets the scheduler choose the fewest
	// nodes that hold the request.
	Nodes int
	// MaxNodes, when above Nodes, is -N's maximum: a job without a GPU
	// total (GPUs) starts on that many nodes when they are free now, else
	// on Nodes (as Slurm: -N1-2 -n2 on an idle cluster runs on 2 nodes,
	// -N2-4 --gpus-per-node=2 on 4), or on the fewest nodes of the range
	// that hold its shares when Nodes cannot.
	MaxNodes int
	// MemWhole is --mem=0 without --exclusive: each node's whole memory,
	// which must all be free (other jobs may use its CPUs and GPUs only
	// without memory). MemPerNode, MemPerCPU and MemPerGPU are 0.
	MemWhole    bool
	GPUs        int // total GPUs when GPUsPerNode is 0
	GPUsPerNode int
	GPUType     string
	// CPUs is the job's total; CPUsPerNode alone is exact per node. With
	// both set (-n with -c), CPUsPerNode is one task's CPUs, the least share
	// of a node, and one node holds the rest (as Slurm lays tasks out).
	CPUs        int
	CPUsPerNode int
	MemPerNode  int64 // MB; 0 when MemPerCPU or MemPerGPU applies
	MemPerCPU   int64
	MemPerGPU   int64
	Exclusive   bool
	NodeList    []string // -w: all must be used
	Exclude     []string // -x
	Features    []string // -C as a plain AND list: all required
	// Constraint is -C beyond a plain AND list (OR, matching OR, counts,
	// parentheses); nil otherwise. constraint.go.
	Constraint *job.Constraint
	// Preferred is the same request with --prefer in place of -C, tried
	// first for a start now; nil without --prefer. prefer.go.
	Preferred *Shape
	TmpDiskMB int64 // --tmp: the least TmpDisk of each node
	// Switches is --switches: the most leaf switches the job's nodes may
	// span until it has been eligible for SwitchWait (0: no limit, and
	// none without a topology), as Slurm's topology/tree.
	Switches   int
	SwitchWait time.Duration
	// Contiguous is --contiguous: the job's nodes are consecutive in node
	// order (Config.Nodes', slurm.conf's), idle or not. contiguous.go.
	Contiguous bool

	// ExclusiveUser: the job shares nodes with its user's jobs only
	// (userexcl.go).
	ExclusiveUser bool

	// LimitMem is the memory per node Slurm compares with the partition's
	// MaxMemPerNode (--mem, or --mem-per-cpu times -c or --mincpus).
	LimitMem int64
}

// PendingJob waits to start.
type PendingJob struct {
	ID         JobID
	Partitions []string // in the user's order; the first that can run it wins
	Tenant     string
	User       string
	Shape      Shape
	Limit      time.Duration
	Submit     time.Time
	// Eligible is when the job became eligible to run (begin time passed,
	// dependencies satisfied); age counts from here.
	Eligible time.Time
	Begin    time.Time // --begin; zero when none
	Nice     int
	QOSPrio  int
	Hold     HoldReason
	// FixedPriority is a priority an operator pinned (scontrol update
	// Priority=N, sbatch --priority=N); 0 leaves it computed. A pinned
	// job keeps that value every cycle, its factors all zero, as Slurm's
	// direct_set_prio jobs; a hold still makes it 0.
	FixedPriority int64
	// SiteFactor is an operator's site factor (scontrol update
	// SiteFactor=), added to the computed priority; 0 for none.
	SiteFactor int64
	// PrevPriority is the priority reported in the previous cycle (0 if new);
	// Cycle reports a PriorityChange when the new value differs.
	PrevPriority int64
	// LostRun is run time lost to earlier preemptions, for compensation.
	LostRun  time.Duration
	Restarts int
	// ArrayTasks is the number of still-pending tasks of an array (0 or 1 for
	// an ordinary job); ArrayRoom is how many more may start now under the
	// array's %throttle (-1: no throttle).
	ArrayTasks int
	ArrayRoom  int
	// ReserveAfter is the end of a reservation cool-down: the job may not
	// hold a new reservation before it.
	ReserveAfter time.Time
	// Reservation names the admin reservation the job was submitted into
	// (--reservation); empty for none.
	Reservation string
	// Licenses are the licenses the job (each task of an array) needs to
	// start (-L); nil for none.
	Licenses []License
}

// Reservation is resources held for one blocked job, carried over from the
// previous cycle's Plan.
type Reservation struct {
	Job       JobID
	Partition string
	Created   time.Time
	// PlannedStart is when the held resources are expected to be complete;
	// zero while the reservation waits on another reservation's resources.
	PlannedStart time.Time
	// Alloc is what the reservation holds now: GPU indices that were free
	// when taken (they may since have been lent to backfill jobs that end
	// before PlannedStart) and, per node, the CPUs and memory the job will
	// need there. It grows as the planned resources free up.
	Alloc []NodeAlloc
	// Awaiting lists the GPUs of the planned allocation that are still in
	// use by running jobs (or held by another reservation). Cycle
	// recomputes it; as input it is ignored.
	Awaiting []NodeAlloc
	// Promised is the earliest planned start the reservation has had, and
	// Progress the last time it gained held GPUs or an earlier planned
	// start (zero: when created). A reservation times out only when it
	// has gained nothing for a timeout and its planned start has slipped
	// more than a timeout past its promise (or is unknown).
	Promised time.Time
	Progress time.Time
	// Claimed is set once the job preempted running jobs for this
	// reservation (urgent preemption or reclaim): what it waits for is its
	// victims' resources, so under PolicyLoam no job of higher priority
	// displaces it, and its victims, requeued, cannot take them back.
	Claimed bool
}

// Usage is decayed usage (GPU-seconds, CPU-seconds for CPU-only work) of one
// tenant (User empty) or one user inside a tenant.
type Usage struct {
	Tenant string
	User   string
	GPUSec float64
	CPUSec float64
}
