package api

import "github.com/loamhpc/loam/pkg/job"

// Step paths. srun creates a step on the controller, which records it and
// launches it through the node daemons of the step's nodes; the tasks'
// standard streams then flow between the nodes and srun directly (StepIO).
const (
	// PathStepCreate takes StepCreateRequest and answers StepCreateResponse
	// once every node of the step has started it.
	PathStepCreate = "/v1/steps/create"
	// PathStepComplete takes StepCompleteRequest and answers an empty
	// object: srun reports how the step ended.
	PathStepComplete = "/v1/steps/complete"
	// PathSteps takes StepQuery and answers StepsResponse (squeue -s).
	PathSteps = "/v1/steps/query"
	// PathStepLaunch is the node daemon's: it takes StepLaunchRequest from
	// the controller (signed with the cluster key) and answers
	// StepLaunchResponse.
	PathStepLaunch = "/v1/noded/step/launch"
)

// StepCreateRequest asks for a new step of a running job: srun's options as
// the step needs them. Counts of 0 are "not given".
type StepCreateRequest struct {
	JobID uint32 `json:"job_id"`
	// Name is the step name (-J, else the command's base name).
	Name string `json:"name"`
	// Argv is the command and its arguments.
	Argv []string `json:"argv"`
	// TaskProlog and TaskEpilog are srun's --task-prolog and
	// --task-epilog: run around each task after slurm.conf's TaskProlog
	// and before its TaskEpilog.
	TaskProlog string `json:"task_prolog,omitempty"`
	TaskEpilog string `json:"task_epilog,omitempty"`
	// Nodes is the node count (-N, 0: the job's node count); NodeList the
	// nodes to use (-w, a host list within the allocation); Exclude the
	// nodes not to use (-x).
	Nodes    int    `json:"nodes,omitempty"`
	NodeList string `json:"node_list,omitempty"`
	Exclude  string `json:"exclude,omitempty"`
	// NTasks (-n, 0: one per node), NTasksPerNode, CPUsPerTask (-c).
	NTasks        int `json:"tasks,omitempty"`
	NTasksPerNode int `json:"tasks_per_node,omitempty"`
	CPUsPerTask   int `json:"cpus_per_task,omitempty"`
	// GPUsPerTask, GPUsPerNode and GPUs (-G, the whole step) are counts;
	// none given gives the step every GPU of the job on its nodes.
	GPUsPerTask int `json:"gpus_per_task,omitempty"`
	GPUsPerNode int `json:"gpus_per_node,omitempty"`
	GPUs        int `json:"gpus,omitempty"`
	// CPUsPerGPU is --cpus-per-gpu (or SLURM_CPUS_PER_GPU): a step of a
	// job without GPUs is refused for it, as Slurm refuses it.
	CPUsPerGPU int `json:"cpus_per_gpu,omitempty"`
	// CPUsPerGPUGiven: CPUsPerGPU was an srun option, not inherited from
	// the job's SLURM_CPUS_PER_GPU; only then does a step of a job in
	// its own right say why it is refused.
	CPUsPerGPUGiven bool `json:"cpus_per_gpu_given,omitempty"`
	// TasksPerGPU is --ntasks-per-gpu: a step that asks for no GPU
	// count runs at least that many tasks for each GPU it gets (all the
	// job's on its nodes), as slurmctld raises its task count.
	TasksPerGPU int `json:"tasks_per_gpu,omitempty"`
	// MemPerNode (--mem) and MemPerCPU (--mem-per-cpu) are the step's
	// memory in MB (0: not given); it must fit in the job's memory on
	// each of its nodes.
	MemPerNode int64 `json:"mem_per_node,omitempty"`
	MemPerCPU  int64 `json:"mem_per_cpu,omitempty"`
	// Overcommit (-O) allows more tasks than CPUs.
	Overcommit bool `json:"overcommit,omitempty"`
	// Exact (--exact, implied by srun's -c and --exclusive as in Slurm
	// 22.05) gives the step only the CPUs its tasks need on each node
	// (SLURM_CPUS_ON_NODE) instead of all the job's CPUs there.
	Exact bool `json:"exact,omitempty"`
	// Overlap (--overlap) shares the CPUs and GPUs that the job's other
	// running steps hold, and holds none itself; without it a step waits
	// for them (as in Slurm 22.05).
	Overlap bool `json:"overlap,omitempty"`
	// Relative (-r) is the index of the allocation's node the step's
	// nodes start at (0: the first).
	Relative int `json:"relative,omitempty"`
	// TaskNodes (-m arbitrary) is the node of each task in task order.
	TaskNodes []string `json:"task_nodes,omitempty"`
	// CPUBind and GPUBind are --cpu-bind and --gpu-bind as given;
	// Distribution is -m (block or cyclic; "" block, or cyclic when there
	// are no more tasks than nodes, as srun decides).
	CPUBind      string `json:"cpu_bind,omitempty"`
	GPUBind      string `json:"gpu_bind,omitempty"`
	Distribution string `json:"distribution,omitempty"`
	// OwnAllocation: srun made the job for this step (no sbatch, salloc
	// or --jobid), whose tasks Slurm gives no
	// SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0.
	OwnAllocation bool `json:"own_allocation,omitempty"`
	// PreserveEnv (srun -E): the tasks keep the SLURM_NNODES,
	// SLURM_NTASKS, SLURM_NPROCS and SLURM_TASKS_PER_NODE of srun's
	// environment (the job's) instead of the step's.
	PreserveEnv bool `json:"preserve_env,omitempty"`
	// NoDistribution: without -m, srun left the distribution unknown and
	// its tasks get no SLURM_DISTRIBUTION (srun's launch.c: a step with
	// --mem=0, an interactive one, or the first of an allocation of its
	// own without --mem or --mem-per-cpu); otherwise the default is
	// cyclic for no more tasks than nodes, block for more.
	NoDistribution bool `json:"no_distribution,omitempty"`
	// Environment is what the tasks start from (srun's environment as
	// --export selected it, with the variables srun sets); the nodes add
	// the step's and each task's SLURM_* variables.
	Environment []string `json:"environment,omitempty"`
	WorkDir     string   `json:"current_working_directory"`
	// StdOut, StdErr and StdIn are file name patterns (%t, %n, %N, %j,
	// %s...) the nodes open for the tasks; empty: the stream goes to srun.
	// StdIn may also be "none" (no input) or a task id (only that task gets
	// srun's input).
	StdOut string `json:"standard_output,omitempty"`
	StdErr string `json:"standard_error,omitempty"`
	StdIn  string `json:"standard_input,omitempty"`
	// OpenMode is how output files open (truncate unless append).
	OpenMode job.OpenMode `json:"open_mode,omitempty"`
	// IO is where the nodes send the tasks' streams.
	IO StepIOAddr `json:"io"`
	// SubmitHost is srun's host, SrunPid its process id.
	SubmitHost string `json:"submit_host,omitempty"`
	SrunPid    int    `json:"srun_pid,omitempty"`
	// MultiProg is the --multi-prog configuration (VerifyMultiProg):
	// Argv is then the file's name and srun's arguments that follow it,
	// and each task runs its own command (MultiProgArgv).
	MultiProg string `json:"multi_prog,omitempty"`
	// Pty (srun --pty) runs task 0 on a pseudo-terminal of its node; nil
	// without one.
	Pty *StepPty `json:"pty,omitempty"`
	// TimeLimit is srun -t in seconds: the nodes end the step that long
	// after it started, as slurmstepd ("*** STEP ... CANCELLED AT ... DUE
	// TO TIME LIMIT ***"); 0 none but the job's.
	TimeLimit int64 `json:"time_limit,omitempty"`
}

// StepIOAddr is srun's listening address for the step's streams and the
// key each node proves itself with (StepIOHello.MAC).
type StepIOAddr struct {
	Addr string `json:"addr"` // "host:port"
	Key  []byte `json:"key"`
}

// StepLayout is where a step's tasks run.
type StepLayout struct {
	// NodeList is the host list of Nodes; Tasks the step's task count.
	NodeList string     `json:"node_list"`
	Tasks    int        `json:"tasks"`
	Nodes    []StepNode `json:"nodes"`
}

// StepNode is one node's share of a step.
type StepNode struct {
	Node string `json:"node"`
	// TaskIDs are the global ids of the tasks on the node, ascending.
	TaskIDs []int `json:"task_ids"`
	// CPUs is the job's CPU count on the node; GPUs the step's GPUs there
	// (global indices on the node).
	CPUs int   `json:"cpus"`
	GPUs []int `json:"gpus,omitempty"`
}

// TasksPerNode lists the task counts in node order.
func (l *StepLayout) TasksPerNode() []int {
	out := make([]int, len(l.Nodes))
	for i, n := range l.Nodes {
		out[i] = len(n.TaskIDs)
	}
	return out
}

// StepCreateResponse answers StepCreateRequest.
type StepCreateResponse struct {
	StepID uint32     `json:"step_id"`
	Layout StepLayout `json:"layout"`
	// KillWait is the seconds between SIGTERM and SIGKILL when a step is
	// terminated.
	KillWait int64 `json:"kill_wait"`
	// KillOnBadExit is slurm.conf's KillOnBadExit: srun ends the step
	// when a task exits non-zero unless -K says otherwise.
	KillOnBadExit bool `json:"kill_on_bad_exit,omitempty"`
}

// StepCompleteRequest reports a step's end: its state (COMPLETED, FAILED,
// CANCELLED) and exit code as sacct shows them (the highest task exit
// status, or the signal that killed a task).
type StepCompleteRequest struct {
	JobID    uint32       `json:"job_id"`
	StepID   uint32       `json:"step_id"`
	State    job.State    `json:"state"`
	ExitCode job.ExitCode `json:"exit_code"`
}

// StepQuery selects steps for squeue -s and scontrol show step; empty
// lists do not filter. A job id matches the job and, for an array, its
// tasks. With Known set, a query naming one job that the controller does
// not hold (running, pending or recently ended) fails with
// CodeInvalidJobID, as Slurm's does.
type StepQuery struct {
	JobIDs []uint32 `json:"job_ids,omitempty"`
	Known  bool     `json:"known,omitempty"`
}

// Step is one running step as squeue -s and scontrol show step list it.
// The batch script of a running batch job is the step "batch".
type Step struct {
	JobID       uint32    `json:"job_id"`
	ArrayJobID  uint32    `json:"array_job_id,omitempty"`
	ArrayTaskID *int      `json:"array_task_id,omitempty"`
	StepID      string    `json:"step_id"` // "0", "batch"
	Name        string    `json:"name"`
	Partition   string    `json:"partition"`
	UserID      uint32    `json:"user_id"`
	UserName    string    `json:"user_name"`
	State       job.State `json:"state"`
	StartTime   int64     `json:"start_time"`
	Nodes       string    `json:"nodes"`
	NodeCount   int       `json:"node_count"`
	Tasks       int       `json:"tasks"`
	CPUs        int       `json:"cpus"`
	// Dist names the task distribution ("Block", "Cyclic"; "" for the
	// batch step); SrunHost and SrunPid are srun's.
	Dist     string `json:"dist,omitempty"`
	SrunHost string `json:"srun_host,omitempty"`
	SrunPid  int    `json:"srun_pid,omitempty"`
	// TRES is what the step holds ("cpu=8,mem=8G,node=2"; "" for the
	// batch step). TRESBind, TRESPerStep, TRESPerNode ("gres:gpu:2") and
	// TRESPerTask are what it asked for, as Slurm prints them; "" when
	// not.
	TRES        string `json:"tres,omitempty"`
	TRESBind    string `json:"tres_bind,omitempty"`
	TRESPerStep string `json:"tres_per_step,omitempty"`
	TRESPerNode string `json:"tres_per_node,omitempty"`
	TRESPerTask string `json:"tres_per_task,omitempty"`
}

// StepsResponse answers StepQuery: steps by job id, then numbered steps
// before the batch step, as squeue sorts them.
type StepsResponse struct {
	Steps []Step `json:"steps"`
}

// StepLaunchRequest tells a node daemon to start its share of a step. The
// daemon takes the job's user, cgroup and GPUs from the job it runs, never
// from the request.
type StepLaunchRequest struct {
	JobID  uint32            `json:"job_id"`
	StepID uint32            `json:"step_id"`
	Step   StepCreateRequest `json:"step"`
	Layout StepLayout        `json:"layout"`
	// NodeIndex is this node's entry in Layout.Nodes.
	NodeIndex int   `json:"node_index"`
	KillWait  int64 `json:"kill_wait"`
}

// StepLaunchResponse answers a step launch the daemon started.
type StepLaunchResponse struct {
	Pid int `json:"pid,omitempty"` // the step process's
}
