package api

import "github.com/loamhpc/loam/pkg/job"

// UnlimitedSeconds is Slurm's UNLIMITED in a duration field.
const UnlimitedSeconds int64 = -1

// Job is one job record as squeue, scontrol show job and squeue --json see
// it. A pending array is one record (ArrayTaskString set, ArrayTaskID nil);
// each started task is its own record with its own JobID, as in Slurm.
//
// Times are Unix seconds (0: unset); durations seconds (UnlimitedSeconds:
// UNLIMITED); memory MB. For a pending job StartTime is the estimated start
// (as Slurm reports it), 0 when none is known.
type Job struct {
	JobID           uint32 `json:"job_id"`
	ArrayJobID      uint32 `json:"array_job_id,omitempty"`
	ArrayTaskID     *int   `json:"array_task_id,omitempty"`
	ArrayTaskString string `json:"array_task_string,omitempty"` // "2-5" on a pending array record
	ArrayMaxTasks   int    `json:"array_max_tasks,omitempty"`   // the %N throttle
	// ArrayTaskCount is how many tasks the pending array record still holds.
	ArrayTaskCount int `json:"array_task_count,omitempty"`

	Name      string `json:"name"`
	UserID    uint32 `json:"user_id"`
	UserName  string `json:"user_name"`
	GroupID   uint32 `json:"group_id"`
	GroupName string `json:"group_name,omitempty"`
	Account   string `json:"account,omitempty"`
	Partition string `json:"partition"`
	QOS       string `json:"qos,omitempty"`
	Comment   string `json:"comment,omitempty"`
	WCKey     string `json:"wckey,omitempty"`
	// Container, MCSLabel and TRESFreq are --container, --mcs-label and
	// --gpu-freq (as "gpu:VALUE"), recorded and shown.
	Container string `json:"container,omitempty"`
	MCSLabel  string `json:"mcs_label,omitempty"`
	TRESFreq  string `json:"tres_freq,omitempty"`
	// AdminComment is set by operators with scontrol update.
	AdminComment string `json:"admin_comment,omitempty"`

	JobState    job.State  `json:"job_state"`
	StateReason job.Reason `json:"state_reason"`
	// StateDescription adds to the reason, e.g. the unavailable nodes of
	// ReqNodeNotAvail or a launch failure.
	StateDescription string `json:"state_description,omitempty"`
	// SpecialExit marks a pending job requeue State=SpecialExit put back:
	// Slurm shows its state as SPECIAL_EXIT until it is released.
	SpecialExit bool `json:"special_exit,omitempty"`
	// Stopped marks a running job whose processes scancel -s STOP
	// stopped: Slurm shows its state as STOPPED until SIGCONT.
	Stopped  bool  `json:"stopped,omitempty"`
	Priority int64 `json:"priority"`
	Nice     int   `json:"nice"`
	Hold     bool  `json:"hold,omitempty"`

	Nodes     string `json:"nodes,omitempty"` // allocated host list
	NodeCount int    `json:"node_count"`      // allocated, or requested while pending
	// MaxNodes is -N's maximum (capped at the task count, as Slurm does);
	// 0 when -N gave none. scontrol prints a pending job's NumNodes=min-max.
	MaxNodes int `json:"max_nodes,omitempty"`
	// MinCPUsNode is Slurm's pn_min_cpus: the larger of --mincpus and
	// CPUs per task times tasks per node.
	MinCPUsNode int `json:"min_cpus_node,omitempty"`
	CPUs        int `json:"cpus"` // allocated, or requested while pending
	// MaxCPUs is a pending job's most CPUs (scontrol update NumCPUs=N-M),
	// 0 for none.
	MaxCPUs       int   `json:"max_cpus,omitempty"`
	Tasks         int   `json:"tasks"`         // --ntasks (1 when not given)
	CPUsPerTask   int   `json:"cpus_per_task"` // 1 when not given
	TasksPerNode  int   `json:"tasks_per_node,omitempty"`
	MemoryPerNode int64 `json:"memory_per_node,omitempty"`
	MemoryPerCPU  int64 `json:"memory_per_cpu,omitempty"`
	MemoryPerGPU  int64 `json:"memory_per_gpu,omitempty"`
	CPUsPerGPU    int   `json:"cpus_per_gpu,omitempty"` // --cpus-per-gpu
	// CPUsPerGPUDefault: CPUsPerGPU is the partition's DefCPUPerGPU.
	CPUsPerGPUDefault bool  `json:"cpus_per_gpu_default,omitempty"`
	MinMemory         int64 `json:"min_memory,omitempty"` // per node, as squeue %m prints
	// MinTmpDisk is --tmp in MB (scontrol's MinTmpDiskNode, squeue %d).
	MinTmpDisk    int64  `json:"min_tmp_disk,omitempty"`
	RequiredNodes string `json:"required_nodes,omitempty"`
	ExcludedNodes string `json:"excluded_nodes,omitempty"`
	Features      string `json:"features,omitempty"` // -C as given; once started, the list it ran with
	// Prefer is --prefer while the job pends (Slurm shows it no more
	// once the job started: Features then names the list used).
	Prefer        string `json:"prefer,omitempty"`
	Exclusive     string `json:"exclusive,omitempty"`
	SpreadJob     bool   `json:"spread_job,omitempty"`    // --spread-job
	Contiguous    bool   `json:"contiguous,omitempty"`    // --contiguous
	TRESPerNode   string `json:"tres_per_node,omitempty"` // "gres:gpu:8"
	TRESPerJob    string `json:"tres_per_job,omitempty"`  // "gres:gpu:16"
	TRESPerTask   string `json:"tres_per_task,omitempty"`
	NTasksPerTRES int    `json:"ntasks_per_tres,omitempty"` // --ntasks-per-gpu
	// The CPU layout and binding asked for (job.Request), which Loam shows
	// but does not enforce; 0 and "" are not given. NTasksPerCore is
	// job.NTasksPerCoreAny for --hint=multithread. The CPU frequencies are
	// Slurm's encoding (job.CPUFreq).
	SocketsPerNode  int    `json:"sockets_per_node,omitempty"`
	CoresPerSocket  int    `json:"cores_per_socket,omitempty"`
	ThreadsPerCore  int    `json:"threads_per_core,omitempty"`
	NTasksPerCore   int    `json:"ntasks_per_core,omitempty"`
	NTasksPerSocket int    `json:"ntasks_per_socket,omitempty"`
	TRESBind        string `json:"tres_bind,omitempty"` // "gpu:closest"
	CPUFreqMin      int64  `json:"cpu_frequency_minimum,omitempty"`
	CPUFreqMax      int64  `json:"cpu_frequency_maximum,omitempty"`
	CPUFreqGov      int64  `json:"cpu_frequency_governor,omitempty"`
	TRESReqStr      string `json:"tres_req_str,omitempty"`   // "cpu=2,mem=2G,node=1,billing=2"
	TRESAllocStr    string `json:"tres_alloc_str,omitempty"` // set once running
	// RequiredSwitch and WaitForSwitch are --switches: the most leaf
	// switches and how long (seconds, capped by max_switch_wait) the job
	// waits for them; 0 and 0 when not given.
	RequiredSwitch int   `json:"required_switch,omitempty"`
	WaitForSwitch  int64 `json:"wait4switch,omitempty"`
	// What the job asked for that Loam records and shows but does not
	// act on (job.Request): --reboot, --bb, --network,
	// --cluster-constraint, --delay-boot (seconds; UnlimitedSeconds),
	// --power ("LEVEL"), --gres-flags (job.GresFlags) and
	// --gpus-per-socket ("gres:gpu:2").
	Reboot          bool   `json:"reboot,omitempty"`
	BurstBuffer     string `json:"burst_buffer,omitempty"`
	Network         string `json:"network,omitempty"`
	ClusterFeatures string `json:"cluster_features,omitempty"`
	DelayBoot       int64  `json:"delay_boot,omitempty"`
	Power           string `json:"power_flags,omitempty"`
	GresFlags       string `json:"gres_flags,omitempty"`
	TRESPerSocket   string `json:"tres_per_socket,omitempty"`

	TimeLimit    int64 `json:"time_limit"` // seconds; UnlimitedSeconds
	TimeMinimum  int64 `json:"time_minimum,omitempty"`
	SubmitTime   int64 `json:"submit_time"`
	EligibleTime int64 `json:"eligible_time,omitempty"`
	// AccrueTime is when the job started accruing age priority: when it
	// became eligible, 0 (Unknown) for a job that started in the pass that
	// first saw it eligible, as Slurm leaves it.
	AccrueTime int64 `json:"accrue_time,omitempty"`
	BeginTime  int64 `json:"begin_time,omitempty"`
	// ResizeTime is when a --no-kill job last lost a failed node
	// (scontrol shows it only when set).
	ResizeTime int64 `json:"resize_time,omitempty"`
	StartTime  int64 `json:"start_time,omitempty"`
	EndTime    int64 `json:"end_time,omitempty"`
	Deadline   int64 `json:"deadline,omitempty"`
	// PreemptTime is when the job received its preemption signal.
	PreemptTime int64 `json:"preempt_time,omitempty"`
	// SuspendTime is when the job was last suspended or resumed;
	// SecsPreSuspend the seconds it ran before its last suspension;
	// SuspendedSecs the seconds it spent suspended in all, which move its
	// end time (scontrol suspend / resume).
	SuspendTime    int64 `json:"suspend_time,omitempty"`
	SecsPreSuspend int64 `json:"secs_pre_suspend,omitempty"`
	SuspendedSecs  int64 `json:"suspended_secs,omitempty"`

	ExitCode    job.ExitCode `json:"exit_code"`
	BatchHost   string       `json:"batch_host,omitempty"`
	BatchFlag   bool         `json:"batch_flag"`
	Command     string       `json:"command,omitempty"`
	WorkDir     string       `json:"current_working_directory,omitempty"`
	StdOut      string       `json:"standard_output,omitempty"` // pattern as written, made absolute
	StdErr      string       `json:"standard_error,omitempty"`
	StdIn       string       `json:"standard_input,omitempty"`
	Restarts    int          `json:"restart_cnt"`
	Requeue     bool         `json:"requeue"`
	Dependency  string       `json:"dependency,omitempty"` // "afterok:12_*(unfulfilled)"
	KillInvDep  bool         `json:"kill_on_invalid_dependency,omitempty"`
	MailType    string       `json:"mail_type,omitempty"`
	MailUser    string       `json:"mail_user,omitempty"`
	SubmitHost  string       `json:"submit_host,omitempty"`
	AllocNode   string       `json:"alloc_node,omitempty"` // the request's resolved address
	SubmitDir   string       `json:"submit_dir,omitempty"`
	Reservation string       `json:"reservation,omitempty"` // an admin reservation name (--reservation)
	Signal      string       `json:"signal,omitempty"`      // --signal as scontrol prints it
	Licenses    string       `json:"licenses,omitempty"`    // -L as given ("matlab:1,wandb")

	// BatchFeatures is --batch as given; nil when not given, "" for
	// --batch= (scontrol shows "BatchFeatures=").
	BatchFeatures *string `json:"batch_features,omitempty"`

	// StdOutDefault: the job was submitted without -o and StdOut is the
	// controller's default name; StdErrDefault: without -e, StdErr is
	// StdOut. Slurm keeps no path then, and squeue prints them so.
	StdOutDefault bool `json:"standard_output_default,omitempty"`
	StdErrDefault bool `json:"standard_error_default,omitempty"`

	// AllocSID is the submitting command's session id (AllocNode:Sid).
	AllocSID int `json:"alloc_sid,omitempty"`

	// NoKillInvDep: submitted with --kill-on-invalid-dep=no.
	NoKillInvDep bool `json:"no_kill_on_invalid_dependency,omitempty"`

	// DerivedExitCode is the highest exit code of the job's steps.
	DerivedExitCode job.ExitCode `json:"derived_exit_code"`

	// Allocation is what the job holds on each node, with GPU indices and
	// whether each GPU is owned by the job's tenant or borrowed (R7).
	Allocation []NodeAllocation `json:"allocation,omitempty"`
	// GRESDetail is scontrol -d's per-node JOB_GRES ("gpu:8(IDX:0-7)").
	GRESDetail []string `json:"gres_detail,omitempty"`

	// Loam's additions.
	QueuePosition  int   `json:"queue_position,omitempty"`  // 1-based in its partition, pending only
	EstimatedStart int64 `json:"estimated_start,omitempty"` // from the latest plan
	// SchedNodes are the nodes the scheduler plans the pending job on (its
	// reservation's), squeue --start's SCHEDNODES; empty when none.
	SchedNodes       string            `json:"sched_nodes,omitempty"`
	SchedReservation *SchedReservation `json:"sched_reservation,omitempty"`
	PriorityFactors  *PriorityFactors  `json:"priority_factors,omitempty"`
	Tenant           string            `json:"tenant,omitempty"`
	QueueClass       string            `json:"queue_class,omitempty"`
	GPUs             int               `json:"gpus,omitempty"`          // allocated, or requested while pending
	BorrowedGPUs     int               `json:"borrowed_gpus,omitempty"` // of GPUs, how many are borrowed
	LastSchedEval    int64             `json:"last_sched_eval,omitempty"`
	// Preemption history (R11, R12): how often the job was preempted, by
	// which job and why the last time, whether that run checkpointed
	// ("saved": it exited inside its grace window; "missed"), and the run
	// time lost in all (seconds), which the scheduler compensates.
	Preemptions   int    `json:"preemptions,omitempty"`
	PreemptedBy   uint32 `json:"preempted_by,omitempty"`
	PreemptReason string `json:"preempt_reason,omitempty"`
	Checkpoint    string `json:"checkpoint,omitempty"`
	LostRunTime   int64  `json:"lost_run_time,omitempty"`
}

// NodeAllocation is what a job holds on one node.
type NodeAllocation struct {
	Node   string `json:"node"`
	CPUs   int    `json:"cpus"`
	CPUIDs string `json:"cpu_ids,omitempty"` // "0-3", when the node daemon pinned them
	Memory int64  `json:"memory"`            // MB
	GPUs   []int  `json:"gpus,omitempty"`    // indices on the node
	// Borrowed has one entry per GPUs entry: true when that GPU is borrowed
	// from another tenant's quota.
	Borrowed []bool `json:"borrowed,omitempty"`
}

// SchedReservation is the reservation the scheduler holds for a blocked job
// (R9): what it holds now, when the job is planned to start, and when the
// reservation times out.
type SchedReservation struct {
	Created      int64            `json:"created"`
	PlannedStart int64            `json:"planned_start,omitempty"`
	Expires      int64            `json:"expires,omitempty"`
	Nodes        string           `json:"nodes,omitempty"`
	Held         []NodeAllocation `json:"held,omitempty"`
	Awaiting     []NodeAllocation `json:"awaiting,omitempty"`
}

// PriorityFactors are the weighted terms of a job's priority, as sprio shows
// them, plus Loam's aging and compensation.
type PriorityFactors struct {
	Age          float64 `json:"age"`
	Fairshare    float64 `json:"fairshare"`
	JobSize      float64 `json:"job_size"`
	Partition    float64 `json:"partition"`
	QOS          float64 `json:"qos"`
	Aging        float64 `json:"aging"`
	Compensation float64 `json:"compensation"`
	Nice         float64 `json:"nice"`
	// Site is the job's SiteFactor (scontrol update), sprio's SITE.
	Site float64 `json:"site,omitempty"`
}
