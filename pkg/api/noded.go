package api

import "github.com/loamhpc/loam/pkg/job"

// RegisterRequest is sent by loam-noded when it starts and whenever the
// controller asks it to (HeartbeatResponse.Reregister). It reports the
// node's hardware and the jobs it still runs, which the controller re-adopts
// or orders killed.
type RegisterRequest struct {
	Node     string `json:"node"`
	Hostname string `json:"hostname,omitempty"`
	// Addr is where the daemon takes controller requests ("host:port").
	Addr    string `json:"addr"`
	Version string `json:"version,omitempty"`

	CPUs           int      `json:"cpus"`
	Boards         int      `json:"boards,omitempty"`
	Sockets        int      `json:"sockets,omitempty"`
	CoresPerSocket int      `json:"cores,omitempty"`
	ThreadsPerCore int      `json:"threads,omitempty"`
	RealMemory     int64    `json:"real_memory"` // MB
	TmpDisk        int64    `json:"temporary_disk,omitempty"`
	GPUs           []GPU    `json:"gpus,omitempty"`
	Features       []string `json:"features,omitempty"`
	// Mounts are the mounted file systems (mount points) partitions may
	// require (RequiredMounts).
	Mounts []string `json:"mounts,omitempty"`
	Health Health   `json:"health"`
	OS     string   `json:"operating_system,omitempty"`
	// CPULoad and FreeMemory (MB) as heartbeats carry them: slurmd's
	// registration reports them too, so sinfo %O/%e and CPULoad=/FreeMem=
	// are there before the first heartbeat.
	CPULoad    float64 `json:"cpu_load,omitempty"`
	FreeMemory int64   `json:"free_mem,omitempty"`

	BootTime  int64 `json:"boot_time,omitempty"`
	StartTime int64 `json:"start_time"` // when this daemon started
	// Running are the jobs whose supervisors are alive on the node, and
	// the jobs that ended but whose end event the controller has not
	// acknowledged yet (StartTime 0; the daemon sends those events before
	// it registers). The controller fails a job of the node as NODE_FAIL
	// only when it is in neither set.
	Running []RunningJob `json:"running,omitempty"`
}

// RunningJob is a job a node daemon runs (or re-adopted after a restart).
type RunningJob struct {
	JobID     uint32 `json:"job_id"`
	StartTime int64  `json:"start_time"` // node-local Unix seconds; 0: ended, event pending
}

// RegisterResponse answers a registration.
type RegisterResponse struct {
	ClusterName string `json:"cluster_name"`
	// HeartbeatInterval is how often to send heartbeats, in seconds.
	HeartbeatInterval int64 `json:"heartbeat_interval"`
	// Kill lists jobs the node reported that the controller does not run
	// there (cancelled while the node was away, or unknown): end them.
	Kill []uint32 `json:"kill,omitempty"`
	// State is the node's state after registration (scontrol's spelling).
	State string `json:"state"`
	// Drain: the node is draining or drained (HealthCheckNodeState's
	// NONDRAINED_IDLE).
	Drain bool `json:"drain,omitempty"`
	// Now is the controller's clock, for the daemon to log skew.
	Now int64 `json:"now"`
	// ConfigGeneration changes at every reconfigure of the controller
	// and when it restarts. A daemon that sees it move since its last
	// answer rereads its files: it missed a PathNodedReconfigure order.
	ConfigGeneration string `json:"config_generation,omitempty"`
}

// HeartbeatRequest says the node is alive and what it runs.
type HeartbeatRequest struct {
	Node       string   `json:"node"`
	Running    []uint32 `json:"running,omitempty"`
	Health     Health   `json:"health"`
	CPULoad    float64  `json:"cpu_load,omitempty"`
	FreeMemory int64    `json:"free_mem,omitempty"` // MB
	Now        int64    `json:"now"`                // node-local clock
}

// HeartbeatResponse answers a heartbeat.
type HeartbeatResponse struct {
	// Reregister asks the daemon to send a full RegisterRequest (the
	// controller restarted or marked the node down meanwhile).
	Reregister bool `json:"reregister,omitempty"`
	// Kill lists running jobs the controller no longer wants there.
	Kill []uint32 `json:"kill,omitempty"`
	Now  int64    `json:"now"`
	// State and Drain are the node's state, as in RegisterResponse, for
	// HealthCheckNodeState.
	State string `json:"state,omitempty"`
	Drain bool   `json:"drain,omitempty"`
	// ConfigGeneration is RegisterResponse's.
	ConfigGeneration string `json:"config_generation,omitempty"`
}

// JobEventKind is what happened to a job on a node.
type JobEventKind string

// Job event kinds.
const (
	// EventStarted: the batch script is running.
	EventStarted JobEventKind = "started"
	// EventEnded: the batch script exited or was killed.
	EventEnded JobEventKind = "ended"
	// EventLaunchFailed: the job could not be started (bad cwd, missing
	// output directory, user unknown...).
	EventLaunchFailed JobEventKind = "launch_failed"
	// EventCompleting: the job ended on the node, whose epilog runs; the
	// event carries the end (as EventEnded will) so the job shows
	// COMPLETING until the Ended event follows.
	EventCompleting JobEventKind = "completing"
)

// JobEvent reports one change of a job on a node. Seq numbers events per
// node daemon so a retried batch is applied once.
type JobEvent struct {
	Seq   uint64 `json:"seq"`
	JobID uint32 `json:"job_id"`
	// Run is the restart count of the job's run the event is about, so an
	// event of an earlier run (a requeued job's, delivered late) cannot end
	// or charge the run now going; nil from daemons that predate it.
	Run  *int         `json:"run,omitempty"`
	Kind JobEventKind `json:"kind"`
	// Time is node-local Unix seconds; TimeNanos refines it.
	Time      int64 `json:"time"`
	TimeNanos int64 `json:"time_nanos,omitempty"`
	// ExitCode is the batch script's end as Slurm reports it: status:0 for
	// an exit, 0:signal for a death by signal (job.FromWaitStatus).
	ExitCode job.ExitCode `json:"exit_code"`
	// OOM: the cgroup's memory limit killed it (OUT_OF_MEMORY).
	OOM bool `json:"oom,omitempty"`
	// TimedOut: the daemon killed it at its time limit (TIMEOUT).
	TimedOut bool `json:"timed_out,omitempty"`
	// Terminated carries the TerminateRequest reason when the daemon ended
	// the job on the controller's order.
	Terminated TerminateReason `json:"terminated,omitempty"`
	// ExitedInGrace: for a preempted job, it exited by itself inside the
	// grace window (its checkpoint completed).
	ExitedInGrace bool `json:"exited_in_grace,omitempty"`
	// Message explains a launch failure ("output directory /x missing").
	Message string `json:"message,omitempty"`
	// FailCode is the Slurm-style code of a launch failure, e.g.
	// "ESLURMD_CREATE_BATCH_DIR_ERROR"; sets the job's exit to 0:53-like
	// values as Slurm does.
	FailCode string `json:"fail_code,omitempty"`
	// Drain, when set, is the reason the node asks to be drained with
	// ("Prolog error", "Epilog error": its node prolog or epilog failed).
	Drain string `json:"drain,omitempty"`
	// KillFailed: processes of the job outlived SIGKILL by
	// UnkillableStepTimeout; the job ended without them (Drain is then
	// "Kill task failed").
	KillFailed bool `json:"kill_failed,omitempty"`
	// Usage is what the job's steps used on the node (usage.go), on an
	// end event.
	Usage *JobUsage `json:"usage,omitempty"`
}

// JobEventsRequest carries a node daemon's events, oldest first.
type JobEventsRequest struct {
	Node   string     `json:"node"`
	Events []JobEvent `json:"events"`
}

// JobEventsResponse acknowledges every event up to and including Acked.
type JobEventsResponse struct {
	Acked uint64 `json:"acked"`
}

// LaunchRequest tells a node daemon to run a job's batch script: the node
// holding the batch step gets it (Batch true); every other node of the job
// gets one with Batch false so it sets up the allocation (cgroup, GPUs)
// for srun steps.
type LaunchRequest struct {
	JobID       uint32 `json:"job_id"`
	ArrayJobID  uint32 `json:"array_job_id,omitempty"`
	ArrayTaskID *int   `json:"array_task_id,omitempty"`
	// Array task statistics for SLURM_ARRAY_TASK_{COUNT,MIN,MAX,STEP}.
	ArrayTaskCount int    `json:"array_task_count,omitempty"`
	ArrayTaskMin   int    `json:"array_task_min,omitempty"`
	ArrayTaskMax   int    `json:"array_task_max,omitempty"`
	ArrayTaskStep  int    `json:"array_task_step,omitempty"`
	Name           string `json:"name"`
	Batch          bool   `json:"batch"`

	UserID   uint32   `json:"user_id"`
	GroupID  uint32   `json:"group_id"`
	Groups   []uint32 `json:"groups,omitempty"` // supplementary groups
	UserName string   `json:"user_name"`

	Script string   `json:"script"`
	Argv   []string `json:"argv,omitempty"` // script arguments after the script path
	// Environment is the job's environment as --export decided it (the
	// submitter's variables and NAME=value entries), without SLURM_*
	// variables, which the daemon adds.
	Environment []string     `json:"environment,omitempty"`
	WorkDir     string       `json:"current_working_directory"`
	StdOut      string       `json:"standard_output"` // pattern, not yet expanded
	StdErr      string       `json:"standard_error,omitempty"`
	StdIn       string       `json:"standard_input,omitempty"`
	OpenMode    job.OpenMode `json:"open_mode,omitempty"` // resolved: append or truncate

	// Alloc is this node's share; Nodes is every node of the job in
	// allocation order (the first runs the batch script), for the
	// SLURM_JOB_NODELIST / CPUS_PER_NODE / TASKS_PER_NODE variables.
	Alloc        NodeAllocation   `json:"alloc"`
	Nodes        []NodeAllocation `json:"nodes"`
	NodeList     string           `json:"node_list"` // host list of Nodes
	NTasks       int              `json:"tasks"`
	TasksPerNode []int            `json:"tasks_per_node,omitempty"` // per Nodes entry
	// NTasksPerNode is --ntasks-per-node as given (0: not given), for
	// SLURM_NTASKS_PER_NODE.
	NTasksPerNode int   `json:"ntasks_per_node,omitempty"`
	CPUsPerTask   int   `json:"cpus_per_task"`
	MemPerCPU     int64 `json:"memory_per_cpu,omitempty"`
	MemPerNode    int64 `json:"memory_per_node,omitempty"`
	MemPerGPU     int64 `json:"memory_per_gpu,omitempty"`

	// TimeLimit is seconds from StartTime (UnlimitedSeconds: none).
	TimeLimit int64       `json:"time_limit"`
	StartTime int64       `json:"start_time"`
	Signal    *job.Signal `json:"signal,omitempty"`
	// KillWait is the seconds between SIGTERM and SIGKILL at the time
	// limit or on cancel.
	KillWait int64 `json:"kill_wait"`
	Restarts int   `json:"restart_cnt"`

	ClusterName string `json:"cluster_name"`
	Partition   string `json:"partition"`
	Account     string `json:"account,omitempty"`
	QOS         string `json:"qos,omitempty"`
	// Constraints is the job's -C, for the node prolog's
	// SLURM_JOB_CONSTRAINTS.
	Constraints string `json:"constraints,omitempty"`
	SubmitHost  string `json:"submit_host,omitempty"`
	SubmitDir   string `json:"submit_dir,omitempty"`
	// ControllerAddr is "host:port" of the controller, for
	// SLURM_WORKING_CLUSTER-like variables and srun.
	ControllerAddr string `json:"controller_addr,omitempty"`
}

// LaunchResponse answers a launch that the daemon accepted; the job's
// start and end follow as JobEvents.
type LaunchResponse struct {
	// Pid is the job supervisor's process id, for logs.
	Pid int `json:"pid,omitempty"`
}

// SignalRequest sends a signal to a running job (scancel --signal).
type SignalRequest struct {
	JobID  uint32 `json:"job_id"`
	Signal int    `json:"signal"`
	// BatchOnly signals only the batch shell (scancel -b); Full signals
	// every process of the job (scancel -f). With neither, as in Slurm,
	// the signal reaches the job's steps but not the batch shell.
	BatchOnly bool `json:"batch_only,omitempty"`
	Full      bool `json:"full,omitempty"`
	// Step, when set, limits the signal to that step's processes on the
	// node (scancel JOB.STEP); SIGKILL then cancels the step: its node
	// announces the cancel and kills its tasks at once, as slurmstepd
	// does. Absent, the signal is for the job as above.
	Step *uint32 `json:"step,omitempty"`
}

// TerminateReason says why the controller ends a job.
type TerminateReason string

// Terminate reasons.
const (
	TerminateCancel   TerminateReason = "cancel"
	TerminateTimeout  TerminateReason = "timeout"
	TerminatePreempt  TerminateReason = "preempt"
	TerminateNodeFail TerminateReason = "node_fail"
	TerminateRequeue  TerminateReason = "requeue"
	TerminateDeadline TerminateReason = "deadline"
)

// TerminateRequest ends a job: send Signal (SIGTERM when 0), wait Grace
// seconds, then SIGKILL everything in the job's cgroup.
type TerminateRequest struct {
	JobID  uint32          `json:"job_id"`
	Reason TerminateReason `json:"reason"`
	Signal int             `json:"signal,omitempty"`
	Grace  int64           `json:"grace"`
}

// TimeLimitRequest changes a running job's time limit (scontrol update
// TimeLimit=...): seconds from the job's start, UnlimitedSeconds for none.
type TimeLimitRequest struct {
	JobID     uint32 `json:"job_id"`
	TimeLimit int64  `json:"time_limit"`
}

// NodedResponse answers signal, terminate and time-limit requests.
// Unknown is set when the daemon does not run the job (it already ended).
type NodedResponse struct {
	Unknown bool `json:"unknown,omitempty"`
}

// CredentialRequest asks a node daemon's Unix socket for a user credential
// bound to one request to the controller: its method, path and the SHA-256
// of its body (hex). The daemon learns the caller's uid and gid from the
// socket itself.
type CredentialRequest struct {
	Method     string `json:"method"`
	Path       string `json:"path"`
	BodySHA256 string `json:"body_sha256"`
}

// CredentialResponse carries the credential to send in the request's
// credential header (package auth).
type CredentialResponse struct {
	Credential string `json:"credential"`
	Expires    int64  `json:"expires"`
}
