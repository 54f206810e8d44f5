package sched

import "time"

// Policy selects the scheduling algorithm. Loam runs PolicyLoam; the other two
// exist so the simulator can measure Loam against the baselines with the same
// placement code.
type Policy int

const (
	// PolicyLoam is everything in the package doc: aging, elastic quotas,
	// reservations with timeout, deadlock breaking, preemption.
	PolicyLoam Policy = iota
	// PolicyEASY is Slurm's sched/backfill: priority order, one reservation per
	// partition that never expires, backfill on time limits, quotas as hard
	// caps with no lending, no aging beyond Slurm's age factor.
	PolicyEASY
	// PolicyFCFS starts jobs strictly in priority order and stops at the first
	// job that does not fit.
	PolicyFCFS
)

// QueueClass is one of the three queue classes of R2.
type QueueClass int

const (
	ClassNormal QueueClass = iota
	ClassUrgent
	ClassBatch
)

// PreemptMode says what happens to a preemption victim.
type PreemptMode int

const (
	PreemptOff PreemptMode = iota
	PreemptRequeue
	PreemptCancel
)

// Unlimited marks a count limit that does not apply.
const Unlimited int64 = -1

// Config is the scheduler's view of the cluster configuration. It changes only
// on reconfigure; the Snapshot carries everything that changes per cycle.
type Config struct {
	Policy     Policy
	Partitions []Partition
	Tenants    []Tenant
	Users      []User
	Priority   PriorityConfig
	// PreemptExemptTime protects a job that has run less than this from
	// being chosen as a victim.
	PreemptExemptTime time.Duration
	// ReclaimAfter is how long a lender's job waits (since it became
	// eligible) for its guarantee to free by itself before it reclaims
	// borrowed GPUs (PolicyLoam). 0 reclaims at once, as R7 reads; a few
	// minutes lets ordinary job ends serve it and spares borrowers' work.
	ReclaimAfter time.Duration
	// Switches is the topology.conf tree; empty means flat.
	Switches []Switch
	// Backfill holds the sched/backfill parameters PolicyEASY follows.
	Backfill Backfill
}

// Backfill is what PolicyEASY reads of slurm.conf's SchedulerParameters.
// Zero values mean Slurm's defaults.
type Backfill struct {
	// Window is bf_window: a blocked job whose planned start lies beyond
	// now+Window gets no reservation (Slurm: "too far in the future to
	// worry about"). Default 1 day.
	Window time.Duration
	// MaxJobTest is bf_max_job_test: how many jobs one pass tests, in
	// priority order; the rest may only start while nothing ahead of them
	// in their partition waits. Default 500.
	MaxJobTest int
	// PartCountReserve is bf_job_part_count_reserve: only the first N
	// blocked jobs of a partition reserve. Default 0: every blocked job
	// tested reserves.
	PartCountReserve int
}

// Slurm's sched/backfill defaults (backfill.c: BACKFILL_WINDOW,
// DEF_BF_MAX_JOB_TEST).
const (
	defaultBfWindow     = 24 * time.Hour
	defaultBfMaxJobTest = 500
)

func (b Backfill) window() time.Duration {
	if b.Window <= 0 {
		return defaultBfWindow
	}
	return b.Window
}

func (b Backfill) maxJobTest() int {
	if b.MaxJobTest <= 0 {
		return defaultBfMaxJobTest
	}
	return b.MaxJobTest
}

// Partition is one queue.
type Partition struct {
	Name  string
	Class QueueClass
	// Tier is Slurm's PriorityTier: higher tiers are scheduled first and, for
	// urgent partitions, may preempt lower tiers.
	Tier        int
	JobFactor   int // PriorityJobFactor
	Nodes       []string
	Up          bool
	Inactive    bool          // State=INACTIVE (Up false): jobs wait with PartitionInactive, not PartitionDown
	MaxTime     time.Duration // 0: unlimited
	DefaultTime time.Duration
	MaxNodes    int // 0: unlimited
	// MaxMemPerNode in MB (0: unlimited): a job asking more per node waits
	// with MaxMemPerLimit.
	MaxMemPerNode int64
	// MaxCPUsPerNode bounds the CPUs the partition's jobs hold on one
	// node together (0: unlimited; maxcpus.go).
	MaxCPUsPerNode int
	// LLN places jobs on the nodes with the most idle CPUs instead of the
	// policy's own choice (lln.go).
	LLN bool
	// AgingRate is the priority gained per hour of waiting, capped at AgingCap.
	AgingRate float64
	AgingCap  float64
	// ReservationDepth is how many blocked jobs of this queue hold
	// reservations at once; 0 disables reservations.
	ReservationDepth    int
	ReservationTimeout  time.Duration // 0: never expires
	ReservationCooldown time.Duration
	// Strict keeps reserved resources idle; otherwise (the default) lower
	// jobs may backfill them when they end before the planned start.
	Strict      bool
	PreemptMode PreemptMode
	GraceTime   time.Duration
	// AllowAccounts and DenyAccounts restrict tenants; empty Allow means all.
	AllowAccounts []string
	DenyAccounts  []string
}

// TRES is a small resource vector. Counts are whole units (CPUs, MB, GPUs,
// nodes). In limits, a negative value means unlimited.
type TRES struct {
	CPU   int64
	MemMB int64
	GPU   int64
	Node  int64
}

// Tenant is a Slurm account with an elastic quota (R6, R7).
type Tenant struct {
	Name   string
	Weight float64 // share of the cluster relative to other tenants
	// Guarantee is the tenant's own quota: it runs here first and can reclaim
	// it from borrowers.
	Guarantee TRES
	// Cap is the hard ceiling on concurrent use (GrpTRES); Unlimited fields
	// mean Guarantee+BorrowLimit.
	Cap TRES
	// BorrowLimit bounds what the tenant may use beyond its guarantee.
	BorrowLimit TRES
	// LendLimit bounds how much of its idle guarantee others may borrow.
	LendLimit TRES
	// Per-user defaults inside this tenant.
	MaxPerUser           TRES
	MaxJobsPerUser       int64
	MaxSubmitJobsPerUser int64
	GrpJobs              int64
}

// User is a login's limits; fields set to Unlimited fall back to the
// tenant's per-user defaults.
type User struct {
	Name          string
	Tenant        string
	Share         float64 // weight within the tenant
	Max           TRES
	MaxJobs       int64
	MaxSubmitJobs int64
}

// PriorityConfig holds Slurm's multifactor weights plus Loam's compensation.
type PriorityConfig struct {
	WeightAge       float64
	WeightFairshare float64
	WeightJobSize   float64
	WeightPartition float64
	WeightQOS       float64
	// WeightCompensation scales the priority given back to a preempted job,
	// per hour of run time it lost.
	WeightCompensation float64
	// CompensationCap bounds the compensation term; 0 leaves it uncapped.
	CompensationCap float64
	MaxAge          time.Duration // 0: Slurm's default of 7 days
	DecayHalfLife   time.Duration
	FavorSmall      bool
	// MaxQOSPriority is the highest priority of any QOS; Slurm divides a
	// job's QOS priority by it to get the QOS factor. 0 disables the factor.
	MaxQOSPriority int
}

// Switch is one topology.conf switch: leaf switches list nodes, upper ones
// list child switches.
type Switch struct {
	Name     string
	Nodes    []string
	Switches []string
}
