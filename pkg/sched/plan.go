package sched

import "time"

// Plan is the output of one Cycle: what to change, and why everything else
// stays as it is. Every slice is sorted deterministically.
type Plan struct {
	Now          time.Time
	Starts       []Start
	Reservations []ReservationChange
	Preemptions  []Preemption
	Priorities   []PriorityChange
	// Pending has one entry per pending job that does not start, with its
	// reason and estimated start.
	Pending []Pending
	// Fragmentation is the share of free GPUs that cannot serve a full-node
	// request (free GPUs on nodes that are not entirely free / all free GPUs).
	Fragmentation float64
	Stats         Stats
}

// Start launches a pending job (or one task of an array) on Alloc.
type Start struct {
	Job       JobID
	Partition string
	Alloc     []NodeAlloc
	// Reserved is set when the job starts on its own reservation.
	Reserved bool
}

// ReservationAction is what happens to a reservation.
type ReservationAction int

const (
	ReserveCreate ReservationAction = iota
	ReserveExtend                   // more resources added or planned start moved
	ReserveDrop
)

// DropReason says why a reservation was dropped.
type DropReason int

const (
	DropNone      DropReason = iota
	DropStarted              // its job started
	DropTimeout              // the queue's reservation timeout passed
	DropDeadlock             // broken to resolve a wait-for cycle
	DropGone                 // its job left the queue (cancelled, held, ...) or a limit, not resources, stops it
	DropDisplaced            // a higher-priority job took precedence
	// DropInfeasible: no planned start exists any more (the nodes it
	// needs are down, drained or run jobs without a time limit).
	DropInfeasible
	// DropWindow: under PolicyEASY the planned start lies beyond the
	// backfill window (bf_window), where Slurm reserves nothing.
	DropWindow
)

// ReservationChange creates, extends or drops a reservation. For create and
// extend it carries the complete new reservation.
type ReservationChange struct {
	Action      ReservationAction
	Reservation Reservation
	Reason      DropReason
	// CycleWith lists the other jobs of a broken wait-for cycle.
	CycleWith []JobID
	// ReserveAfter is set on DropTimeout: the end of the job's cool-down,
	// which the caller stores in PendingJob.ReserveAfter.
	ReserveAfter time.Time
}

// PreemptReason says why a job is preempted.
type PreemptReason int

const (
	PreemptUrgent   PreemptReason = iota // an urgent-class job needs the resources
	PreemptReclaim                       // a lender takes back lent quota
	PreemptDeadlock                      // breaking a wait-for cycle
)

// Preemption stops Victim so that Beneficiary can start.
type Preemption struct {
	Victim      JobID
	Beneficiary JobID
	Reason      PreemptReason
	Mode        PreemptMode
	// Grace is the window between the checkpoint signal and SIGKILL.
	Grace time.Duration
}

// PriorityFactors are the weighted terms that sum to a job's priority.
type PriorityFactors struct {
	Age          float64
	Fairshare    float64
	JobSize      float64
	Partition    float64
	QOS          float64
	Aging        float64 // Loam's per-queue aging term
	Compensation float64
	Nice         float64 // subtracted
	// Site is the job's site factor (scontrol update SiteFactor=), added
	// as it is, as Slurm adds priority_site.
	Site float64
}

// PriorityChange reports a job whose priority differs from PrevPriority.
type PriorityChange struct {
	Job     JobID
	Old     int64
	New     int64
	Factors PriorityFactors
	// Fixed: New is the job's pinned FixedPriority, not computed.
	Fixed bool
}

// Reason is a pending reason as Slurm spells it ("Priority", "Resources").
type Reason string

// Pending explains a job that does not start in this cycle.
type Pending struct {
	Job    JobID
	Reason Reason
	// EstStart is the estimated start; zero when none can be given (held,
	// dependency, never runnable).
	EstStart time.Time
	// Position is 1-based among pending jobs of the same partition in
	// priority order.
	Position  int
	Partition string
	Priority  int64
	// Factors are the priority's factors this cycle (sprio shows them
	// whether or not the integer priority changed).
	Factors PriorityFactors
}

// Stats describe the work of one cycle.
type Stats struct {
	Considered   int // pending jobs examined
	Started      int
	Backfilled   int // started ahead of a higher-priority blocked job
	Reservations int // held after this cycle
	Preempted    int // victims chosen in this cycle
	Deadlocks    int // wait-for cycles broken in this cycle
}
