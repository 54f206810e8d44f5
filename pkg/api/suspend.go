package api

// Suspend and resume (scontrol suspend / resume): an operator stops a
// running job's processes; the job keeps its nodes and its time limit
// stops counting until it is resumed.

const (
	// PathSuspend takes SuspendRequest and answers JobResults.
	PathSuspend = "/v1/jobs/suspend"
	// PathNodedSuspend takes NodeSuspendRequest and answers NodedResponse:
	// the node daemon freezes (or thaws) the job's processes there.
	PathNodedSuspend = "/v1/noded/suspend"
)

// Slurm's codes for suspend and resume.
const (
	// CodeJobNotSuspended: resume of a job that is not suspended.
	CodeJobNotSuspended Code = "ESLURM_JOB_NOT_SUSPENDED"
	// CodeUnexpectedMessage is what Slurm 22.05 answers a suspend or
	// resume of a job id it does not know.
	CodeUnexpectedMessage Code = "SLURM_UNEXPECTED_MSG_ERROR"
)

// SuspendRequest is scontrol suspend (Resume false) or resume (Resume
// true) of the listed jobs; only operators may ask.
type SuspendRequest struct {
	JobIDs []string `json:"job_ids"`
	Resume bool     `json:"resume,omitempty"`
}

// NodeSuspendRequest orders a node daemon to freeze (Resume false) or thaw
// (Resume true) one job's processes, steps included. Repeating an order is
// harmless.
type NodeSuspendRequest struct {
	JobID  uint32 `json:"job_id"`
	Resume bool   `json:"resume,omitempty"`
}
