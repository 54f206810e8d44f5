package api

// Partition administration: scontrol update, create and delete partition.
// The changes live in the controller's memory only: a restart or a
// reconfigure takes the partitions from slurm.conf again, as Slurm 22.05
// does without -R and without ReconfigFlags=KeepPartInfo.

const (
	// PathPartitionUpdate takes PartitionUpdate and answers PartitionsResponse
	// with the partition as it now stands.
	PathPartitionUpdate = "/v1/partitions/update"
	// PathPartitionDelete takes PartitionDelete and answers an empty object.
	PathPartitionDelete = "/v1/partitions/delete"
)

// PartitionUpdate changes a partition (scontrol update PartitionName=...)
// or, with Create, adds one (scontrol create partition). Nil fields stay
// as they are; durations are seconds (UnlimitedSeconds: UNLIMITED) and
// node counts -1 when unlimited.
type PartitionUpdate struct {
	Name              string    `json:"name"`
	Create            bool      `json:"create,omitempty"`
	State             *string   `json:"state,omitempty"` // UP, DOWN, DRAIN, INACTIVE
	MaxTime           *int64    `json:"max_time,omitempty"`
	DefaultTime       *int64    `json:"default_time,omitempty"`
	MaxNodes          *int64    `json:"max_nodes,omitempty"`
	MinNodes          *int64    `json:"min_nodes,omitempty"`
	Default           *bool     `json:"default,omitempty"`
	PriorityTier      *int      `json:"priority_tier,omitempty"`
	PriorityJobFactor *int      `json:"priority_job_factor,omitempty"`
	AllowAccounts     *[]string `json:"allow_accounts,omitempty"` // empty: ALL
	DenyAccounts      *[]string `json:"deny_accounts,omitempty"`
	AllowGroups       *[]string `json:"allow_groups,omitempty"` // empty: ALL
	Hidden            *bool     `json:"hidden,omitempty"`
	Nodes             *string   `json:"nodes,omitempty"` // a host list, or ALL
	OverSubscribe     *string   `json:"oversubscribe,omitempty"`
	GraceTime         *int64    `json:"grace_time,omitempty"`
	// Alternate is a partition name ("" clears it); LLN is LLN=YES|NO.
	Alternate *string `json:"alternate,omitempty"`
	LLN       *bool   `json:"lln,omitempty"`
	PartitionLimits
}

// PartitionLimits are the partition keys scontrol sets beyond the
// classic ones: OverTimeLimit in minutes (UnlimitedSeconds: UNLIMITED),
// DefMemPerNode and MaxMemPerCPU in MB (0: none), MaxCPUsPerNode (-1:
// UNLIMITED), AllocNodes a host list ("ALL" or empty: every host).
type PartitionLimits struct {
	OverTimeLimit   *int64  `json:"over_time_limit,omitempty"`
	DisableRootJobs *bool   `json:"disable_root_jobs,omitempty"`
	DefMemPerNode   *int64  `json:"def_mem_per_node,omitempty"`
	MaxMemPerCPU    *int64  `json:"max_mem_per_cpu,omitempty"`
	MaxCPUsPerNode  *int64  `json:"max_cpus_per_node,omitempty"`
	ExclusiveUser   *bool   `json:"exclusive_user,omitempty"`
	RootOnly        *bool   `json:"root_only,omitempty"`
	ReqResv         *bool   `json:"req_resv,omitempty"`
	AllocNodes      *string `json:"alloc_nodes,omitempty"`
	// DefMemPerCPU and MaxMemPerNode (MB) replace DefMemPerNode and
	// MaxMemPerCPU and the reverse, as on a slurm.conf line.
	DefMemPerCPU  *int64 `json:"def_mem_per_cpu,omitempty"`
	MaxMemPerNode *int64 `json:"max_mem_per_node,omitempty"`
	// AllowQOS and DenyQOS are comma lists ("ALL" or empty: every QOS);
	// PreemptMode, JobDefaults ("DefCpuPerGPU=N,DefMemPerGPU=M") and
	// BillingWeights (TRESBillingWeights) as slurm.conf writes them.
	AllowQOS       *string `json:"allow_qos,omitempty"`
	DenyQOS        *string `json:"deny_qos,omitempty"`
	PreemptMode    *string `json:"preempt_mode,omitempty"`
	JobDefaults    *string `json:"job_defaults,omitempty"`
	BillingWeights *string `json:"billing_weights,omitempty"`
	// CPUBind is CpuBind= as slurmconf.ParseCPUBind spells it ("off"
	// clears the partition's).
	CPUBind *string `json:"cpu_bind,omitempty"`
}

// Empty tells whether l changes nothing.
func (l *PartitionLimits) Empty() bool {
	return l.OverTimeLimit == nil && l.DisableRootJobs == nil && l.DefMemPerNode == nil &&
		l.MaxMemPerCPU == nil && l.MaxCPUsPerNode == nil && l.ExclusiveUser == nil &&
		l.RootOnly == nil && l.ReqResv == nil && l.AllocNodes == nil && l.DefMemPerCPU == nil &&
		l.MaxMemPerNode == nil && l.AllowQOS == nil && l.DenyQOS == nil && l.PreemptMode == nil &&
		l.JobDefaults == nil && l.BillingWeights == nil && l.CPUBind == nil
}

// Empty tells whether u changes nothing.
func (u *PartitionUpdate) Empty() bool {
	return u.State == nil && u.MaxTime == nil && u.DefaultTime == nil && u.MaxNodes == nil &&
		u.MinNodes == nil && u.Default == nil && u.PriorityTier == nil && u.PriorityJobFactor == nil &&
		u.AllowAccounts == nil && u.DenyAccounts == nil && u.Nodes == nil && u.OverSubscribe == nil &&
		u.GraceTime == nil && u.AllowGroups == nil && u.Hidden == nil && u.Alternate == nil && u.LLN == nil &&
		u.PartitionLimits.Empty()
}

// PartitionDelete removes a partition (scontrol delete partition=NAME).
// Slurm refuses while any pending or running job uses it.
type PartitionDelete struct {
	Name string `json:"name"`
}
