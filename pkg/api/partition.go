package api

// Partition is one partition (queue) as sinfo and scontrol show partition
// see it. Durations are seconds (UnlimitedSeconds: UNLIMITED); memory MB;
// counts -1 when unlimited.
type Partition struct {
	Name              string   `json:"name"`
	Nodes             string   `json:"nodes"` // host list
	NodeNames         []string `json:"node_names,omitempty"`
	TotalNodes        int      `json:"total_nodes"`
	TotalCPUs         int      `json:"total_cpus"`
	GRESTRES          string   `json:"gres_tres,omitempty"` // "gres/gpu=256" ending TRES=, only when tracked
	TotalGPUs         int      `json:"total_gpus,omitempty"`
	State             string   `json:"state"` // UP, DOWN, DRAIN, INACTIVE
	Default           bool     `json:"default"`
	MaxTime           int64    `json:"max_time"`
	DefaultTime       int64    `json:"default_time"` // 0: none (MaxTime applies)
	MaxNodes          int64    `json:"max_nodes"`
	MinNodes          int64    `json:"min_nodes"`
	PriorityTier      int      `json:"priority_tier"`
	PriorityJobFactor int      `json:"priority_job_factor"`
	PreemptMode       string   `json:"preempt_mode"`
	GraceTime         int64    `json:"grace_time"`
	AllowAccounts     []string `json:"allow_accounts,omitempty"` // nil: ALL
	DenyAccounts      []string `json:"deny_accounts,omitempty"`
	AllowQOS          []string `json:"allow_qos,omitempty"`
	DenyQOS           []string `json:"deny_qos,omitempty"`     // shown only without AllowQOS
	AllowGroups       []string `json:"allow_groups,omitempty"` // nil: ALL
	Hidden            bool     `json:"hidden,omitempty"`
	// HiddenFromCaller is set when the partition is Hidden or its
	// AllowGroups exclude the caller (root and SlurmUser see every
	// partition): sinfo and scontrol list it only with -a or by name.
	HiddenFromCaller bool   `json:"hidden_from_caller,omitempty"`
	OverSubscribe    string `json:"oversubscribe"`
	DefMemPerCPU     int64  `json:"def_mem_per_cpu,omitempty"`
	DefMemPerGPU     int64  `json:"def_mem_per_gpu,omitempty"`
	MaxMemPerNode    int64  `json:"max_mem_per_node"`
	DefMemPerNode    int64  `json:"def_mem_per_node,omitempty"`
	MaxMemPerCPU     int64  `json:"max_mem_per_cpu,omitempty"`
	// InheritedMemory names which of the memory keys above hold the
	// cluster's value because the partition does not set its own.
	InheritedMemory []string `json:"inherited_memory,omitempty"`
	// OverTimeLimit is the partition's own, in minutes (nil: NONE, the
	// cluster's applies; UnlimitedSeconds: UNLIMITED).
	OverTimeLimit   *int64 `json:"over_time_limit,omitempty"`
	DisableRootJobs bool   `json:"disable_root_jobs,omitempty"`
	// DefCPUPerGPU is the partition's own (0: none, scontrol's
	// JobDefaults=(null)); MaxCPUsPerNode 0 is UNLIMITED.
	DefCPUPerGPU   int64 `json:"def_cpu_per_gpu,omitempty"`
	MaxCPUsPerNode int64 `json:"max_cpus_per_node,omitempty"`
	ExclusiveUser  bool  `json:"exclusive_user,omitempty"`
	RootOnly       bool  `json:"root_only,omitempty"`
	// ReqResv and AllocNodes ("" is ALL) choose the submissions taken.
	ReqResv    bool   `json:"req_resv,omitempty"`
	AllocNodes string `json:"alloc_nodes,omitempty"`
	// CPUBind is the partition's CpuBind as scontrol prints it; "" when
	// unset.
	CPUBind string `json:"cpu_bind,omitempty"`
	// Alternate takes the submissions while State is DRAIN or INACTIVE
	// ("" none); LLN places jobs on the least loaded nodes.
	Alternate string `json:"alternate,omitempty"`
	LLN       bool   `json:"lln,omitempty"`

	// Loam's queue keys (R2, R3, R9, R11).
	QueueClass          string   `json:"queue_class"`
	AgingRate           float64  `json:"aging_rate"`
	AgingCap            float64  `json:"aging_cap"`
	ReservationTimeout  int64    `json:"reservation_timeout"`
	ReservationCooldown int64    `json:"reservation_cooldown"`
	ReservationDepth    int      `json:"reservation_depth"`
	ReservationMode     string   `json:"reservation_mode"`
	CheckpointSignal    string   `json:"checkpoint_signal,omitempty"`
	RequiredMounts      []string `json:"required_mounts,omitempty"`

	// Live counts for sinfo and the user view (R13).
	PendingJobs int `json:"pending_jobs"`
	RunningJobs int `json:"running_jobs"`

	// EffectiveCPUs is TotalCPUs less the nodes' specialized CPUs
	// (CoreSpecCount, CPUSpecList), what TRES=cpu= counts; 0 means TotalCPUs.
	EffectiveCPUs int `json:"effective_cpus,omitempty"`
	// TRESBillingWeights is the partition's value as written; Billing,
	// set only with it, is the billing its TRES= shows (without weights,
	// its CPUs).
	TRESBillingWeights string `json:"tres_billing_weights,omitempty"`
	Billing            int64  `json:"billing,omitempty"`
}

// PartitionsResponse answers PathPartitions in configuration order.
type PartitionsResponse struct {
	Now        int64       `json:"now"`
	Partitions []Partition `json:"partitions"`
}
