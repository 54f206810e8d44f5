package api

// Node states as scontrol show node prints the base state.
const (
	NodeIdle      = "IDLE"
	NodeMixed     = "MIXED"
	NodeAllocated = "ALLOCATED"
	NodeDown      = "DOWN"
	NodeUnknown   = "UNKNOWN"
	NodeFuture    = "FUTURE"
)

// Node state flags, appended to the base state with "+" by scontrol
// ("IDLE+DRAIN", "DOWN+NOT_RESPONDING").
const (
	FlagDrain         = "DRAIN"
	FlagFail          = "FAIL" // scontrol update State=FAIL: drains as DRAIN does
	FlagNotResponding = "NOT_RESPONDING"
	FlagCompleting    = "COMPLETING"
	FlagReserved      = "RESERVED"
	// FlagPlanned: an idle node the scheduler keeps for a pending job's
	// reservation (Slurm's backfill PLANNED).
	FlagPlanned = "PLANNED"
)

// Node is one compute node as sinfo and scontrol show node see it.
type Node struct {
	Name     string `json:"name"`
	Hostname string `json:"hostname,omitempty"`
	Address  string `json:"address,omitempty"`
	Port     int    `json:"port,omitempty"`
	// State is the base state (NodeIdle...), StateFlags the flags
	// (FlagDrain...). DRAINING vs DRAINED: DRAIN with jobs still running
	// is draining.
	State      string   `json:"state"`
	StateFlags []string `json:"state_flags,omitempty"`
	Reason     string   `json:"reason,omitempty"`
	ReasonUser string   `json:"reason_set_by_user,omitempty"`
	ReasonTime int64    `json:"reason_changed_at,omitempty"`
	// Comment and Extra are the admin's free text (scontrol update).
	Comment string `json:"comment,omitempty"`
	Extra   string `json:"extra,omitempty"`

	CPUs      int `json:"cpus"`
	AllocCPUs int `json:"alloc_cpus"`
	// EffectiveCPUs is CPUs less the specialized ones (scontrol's
	// CPUEfctv); 0 from a controller that predates it means CPUs.
	// CoreSpecCount, CPUSpecList and MemSpecLimit are the node's
	// slurm.conf resource specialization, zero when unset.
	EffectiveCPUs  int     `json:"effective_cpus,omitempty"`
	CoreSpecCount  int     `json:"specialized_cores,omitempty"`
	CPUSpecList    string  `json:"specialized_cpus,omitempty"`
	MemSpecLimit   int64   `json:"specialized_memory,omitempty"`
	Boards         int     `json:"boards,omitempty"`
	Sockets        int     `json:"sockets"`
	CoresPerSocket int     `json:"cores"`
	ThreadsPerCore int     `json:"threads"`
	RealMemory     int64   `json:"real_memory"`
	AllocMemory    int64   `json:"alloc_memory"`
	FreeMemory     int64   `json:"free_mem,omitempty"`
	TmpDisk        int64   `json:"temporary_disk,omitempty"`
	CPULoad        float64 `json:"cpu_load,omitempty"`
	Weight         int64   `json:"weight"`
	// CPUBind is the node's CpuBind as scontrol prints it ("cores",
	// "verbose,none"); "" when unset.
	CPUBind string `json:"cpu_bind,omitempty"`

	// GRES is the configured generic resources ("gpu:h100:8"); GRESUsed
	// what jobs hold, with indices ("gpu:h100:2(IDX:0-1)").
	GRES     string `json:"gres,omitempty"`
	GRESUsed string `json:"gres_used,omitempty"`
	GPUs     []GPU  `json:"gpus,omitempty"`
	// AllocGPUs is how many GPUs running jobs hold.
	AllocGPUs int `json:"alloc_gpus"`
	// CfgGRESTRES and AllocGRESTRES are the GPU TRES CfgTRES and AllocTRES
	// end with ("gres/gpu=8"), set only when AccountingStorageTRES tracks
	// them, as Slurm prints them.
	CfgGRESTRES   string `json:"cfg_gres_tres,omitempty"`
	AllocGRESTRES string `json:"alloc_gres_tres,omitempty"`

	Features       []string `json:"features,omitempty"`
	ActiveFeatures []string `json:"active_features,omitempty"`
	Partitions     []string `json:"partitions,omitempty"`
	Mounts         []string `json:"mounts,omitempty"`
	Health         *Health  `json:"health,omitempty"`
	// Jobs are the ids of the jobs running on the node.
	Jobs []uint32 `json:"jobs,omitempty"`

	BootTime      int64 `json:"boot_time,omitempty"`
	SlurmdStart   int64 `json:"slurmd_start_time,omitempty"`
	LastHeartbeat int64 `json:"last_heartbeat,omitempty"`
	// LastBusy is when the node last had a job (scontrol's LastBusyTime):
	// now while it runs one, when its last job ended or it registered
	// idle otherwise, 0 before it registered.
	LastBusy        int64  `json:"last_busy,omitempty"`
	Version         string `json:"version,omitempty"`
	OperatingSystem string `json:"operating_system,omitempty"`
}

// GPU is one GPU of a node as its daemon discovered it.
type GPU struct {
	Index    int    `json:"index"`
	UUID     string `json:"uuid,omitempty"`
	Model    string `json:"model,omitempty"`
	MemoryMB int64  `json:"memory,omitempty"`
	// Device is the device file ("/dev/nvidia3") the cgroup rules name.
	Device string `json:"device,omitempty"`
	// JobID is the job holding this GPU, 0 when free (in node listings).
	JobID uint32 `json:"job_id,omitempty"`
	// Borrowed: the holding job uses this GPU on borrowed quota.
	Borrowed bool `json:"borrowed,omitempty"`
}

// Health is a node daemon's own verdict on its node.
type Health struct {
	OK      bool   `json:"ok"`
	Message string `json:"message,omitempty"`
}

// NodeQuery selects nodes; empty lists do not filter.
type NodeQuery struct {
	Nodes      []string `json:"nodes,omitempty"` // names or host lists
	Partitions []string `json:"partitions,omitempty"`
	// States filter like sinfo -t: base states or flags, any case
	// ("idle", "drain", "down").
	States []string `json:"states,omitempty"`
}

// NodesResponse answers PathNodes, nodes in name order (as sinfo sorts).
type NodesResponse struct {
	Now   int64  `json:"now"`
	Nodes []Node `json:"nodes"`
	// Missing lists node names of the query that do not exist.
	Missing []string `json:"missing,omitempty"`
}

// NodeUpdateRequest is scontrol update nodename=... state=... reason=....
// State is DRAIN, RESUME, DOWN, IDLE or UNDRAIN (any case); DRAIN and DOWN
// need a Reason, as in Slurm.
type NodeUpdateRequest struct {
	Nodes  string `json:"nodes"` // a host list
	State  string `json:"state,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Features and Weight, when set, replace the node's.
	Features *[]string `json:"features,omitempty"`
	Weight   *int64    `json:"weight,omitempty"`
	// ActiveFeatures, a subset of the available ones, replaces the active
	// list; GRES must name the node's own (Loam changes no GRES at run
	// time).
	ActiveFeatures *[]string `json:"active_features,omitempty"`
	GRES           *string   `json:"gres,omitempty"`
	// Comment and Extra, when set, replace the node's ("" clears).
	Comment *string `json:"comment,omitempty"`
	Extra   *string `json:"extra,omitempty"`
	// CPUBind, when set, is the node's new CpuBind as
	// slurmconf.ParseCPUBind spells it; "off" clears it, as in Slurm.
	CPUBind *string `json:"cpu_bind,omitempty"`
}

// NodeUpdateResponse answers PathNodeUpdate with the nodes changed.
type NodeUpdateResponse struct {
	Nodes []string `json:"nodes"`
}
