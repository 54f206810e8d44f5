package slurmconf

import (
	"time"

	"github.com/loamhpc/loam/pkg/rlimit"
)

// Config is the whole typed configuration of a cluster: slurm.conf's
// cluster keys, nodes and partitions, merged with gres.conf, topology.conf
// and tenants.conf by Load. Field names follow the Slurm keys they come
// from. Every field holds its effective value: built-in defaults (Default)
// are filled in, so consumers never test for "unset".
type Config struct {
	// Files lists every file read, in the order read (includes in place).
	Files []string

	ClusterName string
	// SlurmctldHosts are the SlurmctldHost lines in order: the first is the
	// primary controller, the others are backups.
	SlurmctldHosts    []ControllerHost
	SlurmctldPort     int
	SlurmdPort        int
	StateSaveLocation string
	SlurmdSpoolDir    string
	// TmpFS is where a node daemon measures the temporary disk it reports
	// (%n and %h expand to the node's name and host name, as in
	// SlurmdSpoolDir); the controller drains a node that reports less
	// than its TmpDisk.
	TmpFS     string
	SlurmUser string
	MailProg  string
	// Scripts: see scripts.go.
	Scripts Scripts
	// NodeProlog: Prolog, Epilog and their flags (nodeprolog.go).
	NodeProlog NodeProlog
	// CtldScripts: PrologSlurmctld, EpilogSlurmctld and the exit-code
	// requeue (ctldscripts.go).
	CtldScripts CtldScripts
	// Unkillable: UnkillableStepTimeout and UnkillableStepProgram
	// (unkillable.go).
	Unkillable Unkillable
	// SlurmctldDebug and SlurmdDebug are the daemons' log levels by
	// Slurm's name ("debug2"), "" when not written (info); the log files
	// are where they log instead of standard error, "" for none
	// (SlurmdLogFile may hold %n and %h).
	SlurmctldDebug, SlurmdDebug     string
	SlurmctldLogFile, SlurmdLogFile string
	GresTypes                       []string
	// AccountingStorageTRES are the TRES tracked beyond Slurm's defaults
	// (cpu, mem, energy, node, billing, fs/disk, vmem, pages), lower
	// case, in Slurm's order: a GRES shows in a job's TRES strings only
	// when named here (gres/gpu, gres/gpu:h100). See TracksTRES.
	AccountingStorageTRES []string
	// ReconfigFlags as written: KeepPartInfo and KeepPartState make a
	// reconfigure keep the partitions scontrol changed.
	ReconfigFlags []string
	// DependencyParameters as written; KillInvalidDepend is its
	// kill_invalid_depend: cancel a job whose dependency can never be met
	// unless it asked --kill-on-invalid-dep=no.
	DependencyParameters []string
	KillInvalidDepend    bool

	KillWait       time.Duration
	MinJobAge      time.Duration
	SlurmdTimeout  time.Duration
	InactiveLimit  time.Duration
	MessageTimeout time.Duration
	MaxJobCount    int64
	MaxArraySize   int64

	SchedulerType       string
	SchedulerParameters SchedulerParameters
	SelectType          string
	// SelectTypeParameters is kept as written (upper-cased, as scontrol
	// prints it); Loam always allocates cores, memory and GPUs.
	SelectTypeParameters string
	TopologyPlugin       string

	// BillingMaxTRES is PriorityFlags=MAX_TRES: a job's billing is its
	// largest weighted node TRES plus its global ones (billing.go).
	BillingMaxTRES bool

	PriorityType            string
	PriorityWeightAge       int64
	PriorityWeightFairshare int64
	PriorityWeightJobSize   int64
	PriorityWeightPartition int64
	PriorityWeightQOS       int64
	// PriorityWeightTRES maps a TRES name ("cpu", "mem", "gres/gpu") to its
	// weight, from "CPU=1000,Mem=2000,GRES/gpu=3000".
	PriorityWeightTRES    map[string]float64
	PriorityDecayHalfLife time.Duration
	PriorityMaxAge        time.Duration
	PriorityFavorSmall    bool
	// PriorityWeightCompensation is Loam's: priority points given back to a
	// preempted job per hour of run time it lost (R11).
	PriorityWeightCompensation float64

	PreemptType       string
	PreemptMode       PreemptMode
	PreemptExemptTime time.Duration

	DefMemPerCPU  int64 // MB; 0: none
	DefMemPerGPU  int64 // MB; 0: none
	MaxMemPerNode int64 // MB; Unlimited when unset
	// DefMemPerNode and MaxMemPerCPU: 0 when unset; DefMemPerCPU wins
	// over DefMemPerNode, MaxMemPerCPU over MaxMemPerNode (memlimits.go).
	DefMemPerNode   int64
	MaxMemPerCPU    int64
	JobRequeue      bool
	ReturnToService int
	// ResvOverRun is how long a job may run on past the end of the
	// reservation it runs in (whole minutes; slurmtime.Unlimited for
	// UNLIMITED; default 0: it is ended at the reservation's end).
	ResvOverRun time.Duration
	// EnforcePartLimits is EnforceNo, EnforceAll or EnforceAny (YES reads
	// as ANY); OverTimeLimit is how long jobs run past their time limit
	// (slurmtime.Unlimited: never ended for time); DisableRootJobs refuses
	// root's jobs (limits.go).
	EnforcePartLimits string
	OverTimeLimit     time.Duration
	DisableRootJobs   bool
	// PropagateRLimits are the submitting shell's limits jobs get
	// (PropagateResourceLimits, PropagateResourceLimitsExcept; rlimits.go).
	PropagateRLimits rlimit.Set
	// DefCPUPerGPU is the CPUs per GPU of a GPU job without -c or
	// --cpus-per-gpu, 0 for none (partkeys.go).
	DefCPUPerGPU int64
	// KillOnBadExit is srun's -K default; MaxTasksPerNode and
	// MaxStepCount bound a step's tasks on a node and a job's steps
	// (steplimits.go).
	KillOnBadExit   bool
	MaxTasksPerNode int64
	MaxStepCount    int64
	// Licenses are the cluster's local licenses in slurm.conf's order
	// (licenses.go); nil when none.
	Licenses []License
	// PrivateData hides other users' jobs, usage, users and accounts, and
	// nodes, partitions and reservations, from everyone but root and
	// SlurmUser (privatedata.go); nil: everything is public.
	PrivateData PrivateData

	// LoamKeyFile is the cluster key that authenticates daemons and signs
	// user credentials.
	LoamKeyFile string
	// LoamCtldSocket and LoamNodedSocket are the daemons' Unix sockets.
	LoamCtldSocket  string
	LoamNodedSocket string
	// LoamWebhookURL receives every job notification as signed JSON (read
	// when loam-ctld starts); empty: no webhook.
	LoamWebhookURL string
	// LoamAuditRetention is how long priority changes are kept; 0: the
	// controller's default (30 days).
	LoamAuditRetention time.Duration

	Nodes      []Node
	Partitions []Partition
	// GRESConf is gres.conf as read, nil when there is none. Its devices
	// are also attached to the nodes (Node.GRES, Node.AutoDetect).
	GRESConf *GRESConf
	// Topology is topology.conf's switch tree, nil when there is none.
	Topology *Topology
	Tenants  []Tenant
	Users    []User

	// Written holds every slurm.conf cluster key as written, by lower-case
	// canonical name (the last of a repeated key wins): scontrol show
	// config prints the Slurm keys Loam ignores (and the few Slurm prints
	// as written) from it.
	Written map[string]string

	// Warnings are the problems that did not stop loading, in file order.
	Warnings []Warning

	nodeIndex map[string]int
	order     map[Pos]int // reading order of every line, for sorting errors
}

// ControllerHost is one SlurmctldHost line: "host" or "host(addr)".
type ControllerHost struct {
	Host string
	Addr string // equals Host when no address is given
	Pos  Pos
}

// SchedulerParameters holds the SchedulerParameters options Loam honours.
type SchedulerParameters struct {
	SchedInterval     time.Duration // sched_interval
	BfInterval        time.Duration // bf_interval
	BfMaxJobTest      int64         // bf_max_job_test
	BfResolution      time.Duration // bf_resolution
	BfWindow          time.Duration // bf_window (written in minutes)
	BfContinue        bool          // bf_continue
	DefaultQueueDepth int64         // default_queue_depth
	// MaxSwitchWait caps a job's --switches wait (max_switch_wait, in
	// seconds; 300 by default).
	MaxSwitchWait time.Duration
	// Raw is the value as written, for printing.
	Raw string
	// NoHoldOnPrologFail: a batch job whose node prolog failed is
	// requeued without a hold (nohold_on_prolog_fail).
	NoHoldOnPrologFail bool
}

// PreemptMode is what happens to a preemption victim.
type PreemptMode string

// Preemption modes Loam implements. Slurm's SUSPEND and GANG are read with a
// warning and become REQUEUE and nothing.
const (
	PreemptOff     PreemptMode = "OFF"
	PreemptCancel  PreemptMode = "CANCEL"
	PreemptRequeue PreemptMode = "REQUEUE"
)

// Node is one compute node, expanded from a NodeName line with its defaults
// applied and its gres.conf devices attached.
type Node struct {
	Name           string
	Hostname       string // NodeHostname; the node name when unset
	Addr           string // NodeAddr; the host name when unset
	Port           int    // Port, or SlurmdPort when unset
	CPUs           int
	Boards         int
	Sockets        int // total sockets (Boards x SocketsPerBoard)
	CoresPerSocket int
	ThreadsPerCore int
	RealMemory     int64 // MB
	TmpDisk        int64 // MB
	GRES           []GRES
	Features       []string
	Weight         int64
	State          string // UNKNOWN, IDLE, DOWN, DRAIN, FUTURE
	Reason         string
	// CoreSpecCount, SpecCPUs and MemSpecLimit are the cores, their CPU
	// ids (sorted) and the memory (MB) set aside for the system
	// (corespec.go); zero when unset. CPUSpecList is the key as written.
	CoreSpecCount int
	SpecCPUs      []int
	CPUSpecList   string
	MemSpecLimit  int64
	// AutoDetect is the node's gres.conf AutoDetect: "off" or "nvml".
	AutoDetect string
	// CPUBind is the node's CpuBind as ParseCPUBind spells it
	// ("cores", "verbose,none", "off"); "" when unset. Steps without
	// --cpu-bind bind so when all the job's nodes that set one agree.
	CPUBind string
	Pos     Pos
}

// GRES is one generic resource of a node: slurm.conf's Gres= count, with
// the devices gres.conf declares for it.
type GRES struct {
	Name  string // "gpu"
	Type  string // "h100"; empty when untyped
	Count int64
	// Devices are the gres.conf File= entries, one per unit, numbered from
	// 0 across all GRES of the same name on the node. Empty when gres.conf
	// declares no files (a count-only resource, or AutoDetect).
	Devices []Device
	Flags   []string
}

// Device is one unit of a GRES with a device file.
type Device struct {
	Index int
	File  string
	Cores string // gres.conf Cores=, as written
	Links string // gres.conf Links=, as written
}

// Partition is one PartitionName line with its defaults applied.
type Partition struct {
	Name string
	// Nodes are the partition's node names in node-table order; NodesSpec
	// is the value as written ("ALL", a host list).
	Nodes             []string
	NodesSpec         string
	Default           bool
	State             string        // UP, DOWN, DRAIN, INACTIVE
	MaxTime           time.Duration // slurmtime.Unlimited when unset
	DefaultTime       time.Duration // 0: none, MaxTime applies
	MaxNodes          int64         // Unlimited when unset
	MinNodes          int64
	PriorityTier      int
	PriorityJobFactor int
	PreemptMode       PreemptMode   // the cluster's when unset
	GraceTime         time.Duration // written in seconds
	// AllowAccounts nil means every account; names are lower case, as
	// Slurm stores them. DenyAccounts applies only without AllowAccounts.
	AllowAccounts []string
	DenyAccounts  []string
	AllowQOS      []string
	DenyQOS       []string
	// AllowGroups nil means every group; otherwise only members of these
	// Unix groups (and root and SlurmUser) may submit to the partition.
	AllowGroups []string
	// Hidden keeps the partition and its jobs out of listings that do
	// not ask for all (-a), except for root and SlurmUser.
	Hidden        bool
	OverSubscribe string // NO, EXCLUSIVE, YES, FORCE
	DefMemPerCPU  int64  // MB; the cluster's when unset
	DefMemPerGPU  int64  // MB; the cluster's when unset
	MaxMemPerNode int64  // MB; the cluster's when unset
	DefMemPerNode int64  // MB; the cluster's when unset (memlimits.go)
	MaxMemPerCPU  int64  // MB; the cluster's when unset
	// InheritedMemory names the memory keys of the five above that the
	// partition line does not set, whose values are the cluster's
	// (scontrol shows a partition's own values only).
	InheritedMemory []string
	// OverTimeLimit is OverTimeInherit unless the line sets it;
	// DisableRootJobs is the cluster's unless the line sets it.
	OverTimeLimit   time.Duration
	DisableRootJobs bool
	PartKeys        // partkeys.go
	PartRoute       // partalternate.go
	Queue           // Loam's queue keys
	Pos             Pos
	// Billing is TRESBillingWeights (billing.go).
	Billing BillingWeights
	// CPUBind is the partition's CpuBind (cpubind.go), the default binding
	// of steps whose nodes give none; "" when unset.
	CPUBind string
}

// QueueClass is one of Loam's three queue classes (R2).
type QueueClass string

// Queue classes.
const (
	ClassUrgent QueueClass = "urgent"
	ClassNormal QueueClass = "normal"
	ClassBatch  QueueClass = "batch"
)

// ReservationMode says whether lower jobs may backfill a reservation.
type ReservationMode string

// Reservation modes.
const (
	// ReserveBackfill lets lower jobs use reserved resources when they end
	// before the reservation's planned start.
	ReserveBackfill ReservationMode = "backfill"
	// ReserveStrict keeps reserved resources idle until the job starts.
	ReserveStrict ReservationMode = "strict"
)

// Queue holds Loam's own partition keys: the queue class and the
// aging, reservation and preemption parameters of R2, R3, R9 and R11.
type Queue struct {
	QueueClass QueueClass
	// QueueClassDerived is true when QueueClass was not written and came
	// from the partition's PriorityTier rank.
	QueueClassDerived bool
	// AgingRate is the priority points a pending job gains per hour waited,
	// up to AgingCap points.
	AgingRate float64
	AgingCap  float64
	// ReservationTimeout drops a reservation whose job has not started
	// within it; ReservationCooldown is how long that job then waits before
	// it may reserve again.
	ReservationTimeout  time.Duration
	ReservationCooldown time.Duration
	// ReservationDepth is how many of the queue's top blocked jobs hold
	// reservations; 0 disables reservations.
	ReservationDepth int
	ReservationMode  ReservationMode
	// CheckpointSignal is sent to preemption victims that asked for no
	// signal of their own ("USR1").
	CheckpointSignal string
	// RequiredMounts must be mounted on every node of the partition.
	RequiredMounts []string
}

// Topology is topology.conf's tree of switches.
type Topology struct {
	Switches []Switch
}

// Switch is one SwitchName line.
type Switch struct {
	Name      string
	Nodes     []string // expanded Nodes=
	Switches  []string // expanded Switches=
	LinkSpeed int64
	// Parent is the switch whose Switches= lists this one; empty for a root.
	Parent string
	Pos    Pos
}

// TRES is a set of trackable resource counts keyed by Slurm's TRES names:
// "cpu", "mem" (MB), "node", "billing", "gres/gpu", "gres/gpu:h100",
// "license/NAME". In a limit, a name that is absent is not limited.
type TRES map[string]int64

// Tenant is one TenantName line of tenants.conf: a Slurm account with its
// share and elastic quota (R4, R6, R7).
type Tenant struct {
	Name        string // lower case, as Slurm stores account names
	Description string
	Weight      float64
	// Guarantee is the tenant's own quota; BorrowLimit bounds use beyond it
	// (empty: unlimited); LendLimit bounds how much of its idle guarantee
	// others may borrow (defaults to all of Guarantee); GrpTRES is the hard
	// cap on concurrent use (defaults to Guarantee+BorrowLimit).
	Guarantee   TRES
	BorrowLimit TRES
	LendLimit   TRES
	GrpTRES     TRES
	// Per-user defaults inside the tenant; User lines override them.
	MaxTRESPerUser       TRES
	MaxJobsPerUser       int64
	MaxSubmitJobsPerUser int64
	GrpJobs              int64
	GrpSubmitJobs        int64
	// Partitions the tenant may use; nil means all.
	Partitions []string
	Pos        Pos
}

// User is one UserName line of tenants.conf.
type User struct {
	Name           string
	Accounts       []string // tenants, lower case
	DefaultAccount string
	Share          float64 // weight among the tenant's users
	// GrpTRES, MaxJobs and MaxSubmitJobs cap the user's jobs in each of its
	// tenants. A TRES name absent from GrpTRES, and a count equal to
	// Inherit, take the tenant's per-user default (see UserLimits).
	GrpTRES       TRES
	MaxJobs       int64
	MaxSubmitJobs int64
	Pos           Pos
}

// AcctGatherFrequency is JobAcctGatherFrequency as written, else Slurm's
// default "30" (seconds between task samples). Loam samples nothing, but
// the controller checks --acctg-freq against it and scontrol shows it.
func (c *Config) AcctGatherFrequency() string {
	if v, ok := c.Written["jobacctgatherfrequency"]; ok {
		return v
	}
	return "30"
}
