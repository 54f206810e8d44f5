package api

// JobFilter selects jobs by attribute for scancel -u/-p/-t/-n/-A/-q/-w.
// Within one field any entry matches; across fields all must match. A
// filter with only JobIDs acts on those jobs; a filter with attributes and
// JobIDs acts on the listed jobs that also match the attributes.
type JobFilter struct {
	JobIDs     []string `json:"job_ids,omitempty"` // as ParseJobRef reads them
	Users      []string `json:"users,omitempty"`   // names or numeric uids
	Accounts   []string `json:"accounts,omitempty"`
	Partitions []string `json:"partitions,omitempty"`
	States     []string `json:"states,omitempty"` // names or squeue codes
	Names      []string `json:"names,omitempty"`
	QOS        []string `json:"qos,omitempty"`
	Nodes      []string `json:"nodes,omitempty"`
	// Reservations are admin reservation names (--reservation, scancel
	// -R): jobs submitted into any of them.
	Reservations []string `json:"reservations,omitempty"`
}

// Empty reports whether the filter selects nothing at all (no ids and no
// attribute), which the controller refuses rather than reading as "every
// job".
func (f *JobFilter) Empty() bool {
	return len(f.JobIDs)+len(f.Users)+len(f.Accounts)+len(f.Partitions)+
		len(f.States)+len(f.Names)+len(f.QOS)+len(f.Nodes)+len(f.Reservations) == 0
}

// CancelRequest is scancel: end the selected jobs, or with Signal send them
// a signal and leave them running.
type CancelRequest struct {
	Filter JobFilter `json:"filter"`
	// Signal is a signal number (scancel --signal); 0 cancels the job.
	Signal int `json:"signal,omitempty"`
	// BatchOnly (-b) signals the batch shell only, not its children.
	BatchOnly bool `json:"batch_only,omitempty"`
	// Full (-f) signals every step including the batch shell.
	Full bool `json:"full,omitempty"`
	// Step, when set, acts on that step of each selected running job
	// (scancel JOB.STEP): Signal 0 or SIGKILL cancels the step, another
	// signal goes to the step's tasks only. A job without that step
	// running answers CodeInvalidJobID.
	Step *uint32 `json:"step,omitempty"`
}

// JobResult is the outcome of an operation on one job: Error nil on
// success. JobID is the reference as the request gave it, or the id of a
// job selected by attributes.
type JobResult struct {
	JobID string `json:"job_id"`
	Error *Error `json:"error,omitempty"`
	// Tasks, on the result of a reference to a job array, are the outcomes
	// of the array's tasks grouped by error, in order of first appearance,
	// as Slurm answers an array operation ("12_0,3-5: MESSAGE").
	Tasks []TaskOutcome `json:"tasks,omitempty"`
}

// TaskOutcome is one group of an array's tasks that ended alike.
type TaskOutcome struct {
	ArrayJobID uint32 `json:"array_job_id"`
	Tasks      string `json:"tasks"` // "0,3-5"
	Error      *Error `json:"error,omitempty"`
}

// JobResults answers the operations on many jobs, in the order of the
// request's references, then the attribute-selected jobs in id order.
type JobResults struct {
	Results []JobResult `json:"results"`
}

// HoldRequest is scontrol hold (User false: JobHeldAdmin when an operator
// asks, JobHeldUser otherwise, as Slurm does) and scontrol uhold (User true:
// JobHeldUser).
type HoldRequest struct {
	JobIDs []string `json:"job_ids"`
	User   bool     `json:"user,omitempty"`
}

// ReleaseRequest is scontrol release.
type ReleaseRequest struct {
	JobIDs []string `json:"job_ids"`
}

// RequeueRequest is scontrol requeue (Hold false) and requeuehold (Hold
// true: the job comes back held, RequeueHold). Incomplete (scontrol's
// "Incomplete" flag) requeues only jobs that are running or suspended;
// the others are left alone without an error. SpecialExit
// ("State=SpecialExit") puts the job back held in state SPECIAL_EXIT.
type RequeueRequest struct {
	JobIDs      []string `json:"job_ids"`
	Hold        bool     `json:"hold,omitempty"`
	Incomplete  bool     `json:"incomplete,omitempty"`
	SpecialExit bool     `json:"special_exit,omitempty"`
}

// UpdateRequest is scontrol update job: every non-nil field is changed on
// every listed job, all or nothing per job.
type UpdateRequest struct {
	JobIDs []string  `json:"job_ids"`
	Update JobUpdate `json:"update"`
}

// JobUpdate holds the changes scontrol update may ask for. Durations are
// seconds (UnlimitedSeconds for UNLIMITED); times are Unix seconds.
type JobUpdate struct {
	TimeLimit   *int64  `json:"time_limit,omitempty"`
	TimeMinimum *int64  `json:"time_minimum,omitempty"`
	Partition   *string `json:"partition,omitempty"` // pending jobs only
	// Priority may be set by operators only; 0 holds the job as Slurm does.
	Priority *int64  `json:"priority,omitempty"`
	Nice     *int    `json:"nice,omitempty"` // negative values: operators only
	Name     *string `json:"name,omitempty"`
	Comment  *string `json:"comment,omitempty"`
	// AdminComment is operators' note on the job; EndTime moves a running
	// job's end (its time limit follows); WorkDir is a pending job's
	// working directory.
	AdminComment *string `json:"admin_comment,omitempty"`
	EndTime      *int64  `json:"end_time,omitempty"`
	WorkDir      *string `json:"work_dir,omitempty"`
	Account      *string `json:"account,omitempty"`
	QOS          *string `json:"qos,omitempty"`
	BeginTime    *int64  `json:"begin_time,omitempty"`
	Deadline     *int64  `json:"deadline,omitempty"`
	Dependency   *string `json:"dependency,omitempty"` // "" removes every dependency
	// NumNodes, NumTasks, MinCPUs... apply to pending jobs only.
	MinNodes    *int `json:"min_nodes,omitempty"`
	MaxNodes    *int `json:"max_nodes,omitempty"` // NumNodes=min-max; 0 clears the maximum
	NumTasks    *int `json:"tasks,omitempty"`
	CPUsPerTask *int `json:"cpus_per_task,omitempty"`
	MinCPUsNode *int `json:"min_cpus_node,omitempty"` // --mincpus
	// TasksPerNode is --ntasks-per-node (operators only, as in Slurm).
	TasksPerNode *int `json:"tasks_per_node,omitempty"`
	// NumCPUs and MaxCPUs are NumCPUs=N[-M]: the job's CPUs in place of
	// its tasks' (Slurm's min_cpus and max_cpus).
	NumCPUs       *int    `json:"num_cpus,omitempty"`
	MaxCPUs       *int    `json:"max_cpus,omitempty"`
	Features      *string `json:"features,omitempty"`
	Prefer        *string `json:"prefer,omitempty"` // "" clears it
	RequiredNodes *string `json:"required_nodes,omitempty"`
	ExcludedNodes *string `json:"excluded_nodes,omitempty"`
	GRES          *string `json:"gres,omitempty"` // --gres syntax, per node
	Requeue       *bool   `json:"requeue,omitempty"`
	StdOut        *string `json:"standard_output,omitempty"`
	StdErr        *string `json:"standard_error,omitempty"`
	MailUser      *string `json:"mail_user,omitempty"`
	MailType      *string `json:"mail_type,omitempty"`
	// ArrayMaxTasks changes the %N throttle of an array job.
	ArrayMaxTasks *int `json:"array_max_tasks,omitempty"`
	// MemPerCPU and MemPerNode (MB) are MinMemoryCPU and MinMemoryNode;
	// setting one clears the other, as --mem-per-cpu and --mem exclude
	// each other.
	MemPerCPU  *int64 `json:"memory_per_cpu,omitempty"`
	MemPerNode *int64 `json:"memory_per_node,omitempty"`
	// MinTmpDisk (MB) is MinTmpDiskNode: --tmp (pending jobs).
	MinTmpDisk *int64 `json:"min_tmp_disk,omitempty"`
	// Reservation is ReservationName: an admin reservation the job's
	// user and account may use, "" to leave it (pending or running jobs).
	Reservation *string `json:"reservation,omitempty"`
	// Licenses is Licenses=: -L's syntax, "" to clear (pending jobs).
	Licenses *string `json:"licenses,omitempty"`
	// Switches is Switches=COUNT (0 clears --switches); SwitchWait is
	// Switches=COUNT@TIME's or wait-for-switch='s seconds, which the
	// controller caps with max_switch_wait. Pending or running jobs.
	Switches   *int   `json:"required_switch,omitempty"`
	SwitchWait *int64 `json:"wait4switch,omitempty"`
	// Contiguous is Contiguous=: 0 clears --contiguous, anything else
	// sets it (pending jobs; only operators may set it).
	Contiguous *int `json:"contiguous,omitempty"`
	// SiteFactor is SiteFactor=: added to the job's priority (sprio's
	// SITE), operators only, pending or running jobs.
	SiteFactor *int64 `json:"site_factor,omitempty"`
	// ResetAccrueTime is ResetAccrueTime: a pending job accrues age
	// from now.
	ResetAccrueTime bool `json:"reset_accrue_time,omitempty"`
	// SocketsPerNode, CoresPerSocket and ThreadsPerCore are ReqSockets=,
	// ReqCores= and ReqThreads= (-B's counts; pending jobs). CoreSpec is
	// CoreSpec= or ThreadSpec= (-1 for "*"), refused as Slurm refuses it
	// without AllowSpecResourcesUsage; Clusters= is refused as outside a
	// federation.
	SocketsPerNode *int    `json:"sockets_per_node,omitempty"`
	CoresPerSocket *int    `json:"cores_per_socket,omitempty"`
	ThreadsPerCore *int    `json:"threads_per_core,omitempty"`
	CoreSpec       *int    `json:"core_spec,omitempty"`
	Clusters       *string `json:"clusters,omitempty"`
	// TRESPerJob, TRESPerTask and TRESPerSocket are TresPerJob=,
	// TresPerTask= and TresPerSocket= ("gres:gpu:2", as --gpus,
	// --gpus-per-task and --gpus-per-socket); MemPerTRES and CPUsPerTRES
	// are MemPerTres= and CpusPerTres= ("gpu:N"). Pending jobs.
	TRESPerJob    *string `json:"tres_per_job,omitempty"`
	TRESPerTask   *string `json:"tres_per_task,omitempty"`
	TRESPerSocket *string `json:"tres_per_socket,omitempty"`
	MemPerTRES    *string `json:"mem_per_tres,omitempty"`
	CPUsPerTRES   *string `json:"cpus_per_tres,omitempty"`
	// OverSubscribe is OverSubscribe= (or Shared=): 0 gives the job whole
	// nodes (OverSubscribe=NO), anything else lets it share them (YES).
	// Pending jobs; only operators may change it.
	OverSubscribe *int `json:"shared,omitempty"`
	// Reboot is Reboot=: 0 clears --reboot, anything else sets it.
	// Pending jobs; root and SlurmUser only.
	Reboot *int `json:"reboot,omitempty"`
	// DelayBoot is DelayBoot= in seconds (slurmtime.InfiniteSecs for
	// UNLIMITED): pending or running jobs, anyone.
	DelayBoot *int64 `json:"delay_boot,omitempty"`
	// WCKey is WCKey=: pending jobs only. Loam records the key and
	// shows it, as Slurm does without accounting.
	WCKey *string `json:"wckey,omitempty"`
	// BurstBuffer and ClusterFeatures are refused as Slurm refuses them
	// without burst buffers or federation.
	BurstBuffer     *string `json:"burst_buffer,omitempty"`
	ClusterFeatures *string `json:"cluster_features,omitempty"`
	// TRESBind and TRESFreq are TresBind= and TresFreq= ("gpu:closest",
	// "gpu:low"; "" clears them): pending or running jobs, by their
	// owner too. Steps already started, and those srun starts from the
	// batch script's SLURM_GPU_BIND and SLURM_GPU_FREQ, keep what the
	// job was submitted with, as in Slurm.
	TRESBind *string `json:"tres_bind,omitempty"`
	TRESFreq *string `json:"tres_freq,omitempty"`
}

// Empty reports whether the update changes nothing.
func (u *JobUpdate) Empty() bool { return *u == JobUpdate{} }
