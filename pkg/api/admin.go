package api

// Paths of scontrol's administrative commands: write batch_script,
// setdebug, setdebugflags and shutdown on the controller, and listpids on
// a node daemon's Unix socket.
const (
	// PathJobScript takes JobScriptRequest and answers JobScriptResponse:
	// the batch script of a job the controller still holds (scontrol
	// write batch_script).
	PathJobScript = "/v1/jobs/script"
	// PathSetDebug takes SetDebugRequest and answers SetDebugResponse:
	// the controller's log level or debug flags (operators only).
	PathSetDebug = "/v1/admin/debug"
	// PathShutdown takes ShutdownRequest and answers ShutdownResponse:
	// the controller stops cleanly once it has answered (operators only).
	PathShutdown = "/v1/admin/shutdown"
	// PathNodedShutdown (signed by the controller) takes an empty JSON
	// object and answers NodedResponse: the node daemon stops, leaving
	// its jobs' supervisors running for the next daemon to adopt.
	PathNodedShutdown = "/v1/noded/shutdown"
	// PathNodedPids (node daemon Unix socket) takes PidsRequest and
	// answers PidsResponse (scontrol listpids).
	PathNodedPids = "/v1/noded/pids"
)

// JobScriptRequest asks for job JobID's batch script.
type JobScriptRequest struct {
	JobID uint32 `json:"job_id"`
}

// JobScriptResponse is a job's batch script, as submitted.
type JobScriptResponse struct {
	Script string `json:"script"`
}

// SetDebugRequest changes the controller's logging: Level when set (one
// of Slurm's names: quiet, fatal, error, info, verbose, debug,
// debug2..debug5, or 0-9), else Flags ("+NAME" or "-NAME" words).
type SetDebugRequest struct {
	Level string   `json:"level,omitempty"`
	Flags []string `json:"flags,omitempty"`
}

// SetDebugResponse reports the level and flags in force afterwards.
type SetDebugResponse struct {
	Level string   `json:"level"`
	Flags []string `json:"flags,omitempty"`
}

// ShutdownRequest stops the controller and, unless ControllerOnly, asks
// every responding node daemon to stop first.
type ShutdownRequest struct {
	ControllerOnly bool `json:"controller_only,omitempty"`
}

// ShutdownResponse names the node daemons that were asked to stop and
// those that could not be reached.
type ShutdownResponse struct {
	Nodes       []string `json:"nodes,omitempty"`
	Unreachable []string `json:"unreachable,omitempty"`
}

// PidsRequest asks a node daemon for the processes of its jobs: all
// jobs when JobID is 0, else that job's, and only those of step Step
// ("batch" or a number) when it is set.
type PidsRequest struct {
	JobID uint32 `json:"job_id,omitempty"`
	Step  string `json:"step,omitempty"`
}

// PidsResponse lists processes in the order scontrol listpids prints
// them, with the node's name.
type PidsResponse struct {
	Node  string    `json:"node"`
	Procs []JobProc `json:"procs"`
	// KnownJob and KnownStep tell an empty list apart: the job (step)
	// does not run on the node, or runs without processes.
	KnownJob  bool `json:"known_job"`
	KnownStep bool `json:"known_step"`
}

// JobProc is one process of a job: its step ("batch" or a number) and,
// for a task's own process, its local and global task ids (-1 for a
// task's descendants).
type JobProc struct {
	PID      int    `json:"pid"`
	JobID    uint32 `json:"job_id"`
	Step     string `json:"step"`
	LocalID  int    `json:"local_id"`
	GlobalID int    `json:"global_id"`
}
