package api

import "github.com/loamhpc/loam/pkg/job"

// AcctQuery selects accounting records for sacct: finished jobs from the
// controller's history and the live ones. Empty lists do not filter.
// Accounts, Partitions and Names compare without ASCII case (LowerASCII),
// as Slurm's accounting database does.
type AcctQuery struct {
	JobIDs     []string `json:"job_ids,omitempty"` // as ParseJobRef reads them
	Users      []string `json:"users,omitempty"`   // names or numeric uids; empty: all users
	Accounts   []string `json:"accounts,omitempty"`
	Partitions []string `json:"partitions,omitempty"`
	States     []string `json:"states,omitempty"` // names or short codes
	Names      []string `json:"names,omitempty"`
	Nodes      []string `json:"nodes,omitempty"`
	// StartTime and EndTime bound the time window (-S, -E; Unix seconds,
	// 0: open). A job is selected when it was eligible or running inside
	// the window, as sacct selects; with States, when it was in one of the
	// states inside the window.
	StartTime int64 `json:"start_time,omitempty"`
	EndTime   int64 `json:"end_time,omitempty"`
	// AllocationsOnly (-X) leaves out the steps.
	AllocationsOnly bool `json:"allocations_only,omitempty"`
	// Duplicates (-D) lists every run of a requeued job, the earlier ones
	// in the state they ended in (REQUEUED, PREEMPTED, NODE_FAIL); without
	// it a job id gets one record, its latest run that matched.
	Duplicates bool `json:"duplicates,omitempty"`
	// Limit caps the number of records (0: no cap).
	Limit int `json:"limit,omitempty"`
}

// AcctJob is one job's accounting record. Times are Unix seconds (0:
// unknown); Elapsed is seconds.
type AcctJob struct {
	JobID           uint32       `json:"job_id"`
	ArrayJobID      uint32       `json:"array_job_id,omitempty"`
	ArrayTaskID     *int         `json:"array_task_id,omitempty"`
	ArrayTaskString string       `json:"array_task_string,omitempty"`
	Name            string       `json:"name"`
	UserID          uint32       `json:"user_id"`
	UserName        string       `json:"user_name"`
	GroupID         uint32       `json:"group_id"`
	Account         string       `json:"account,omitempty"`
	Partition       string       `json:"partition"`
	QOS             string       `json:"qos,omitempty"`
	State           job.State    `json:"state"`
	Reason          job.Reason   `json:"reason,omitempty"`
	ExitCode        job.ExitCode `json:"exit_code"`
	DerivedExitCode job.ExitCode `json:"derived_exit_code,omitempty"` // the highest step exit
	SubmitTime      int64        `json:"submit_time"`
	EligibleTime    int64        `json:"eligible_time,omitempty"`
	StartTime       int64        `json:"start_time,omitempty"`
	EndTime         int64        `json:"end_time,omitempty"`
	Elapsed         int64        `json:"elapsed"`
	TimeLimit       int64        `json:"time_limit"`
	Nodes           string       `json:"nodes,omitempty"`
	NodeCount       int          `json:"node_count"`
	CPUs            int          `json:"cpus"`
	GPUs            int          `json:"gpus,omitempty"` // held (asked for, before it ran); AllocTRES names GPUs only when tracked
	ReqTRES         string       `json:"tres_req_str,omitempty"`
	AllocTRES       string       `json:"tres_alloc_str,omitempty"`
	WorkDir         string       `json:"current_working_directory,omitempty"`
	Constraints     string       `json:"constraints,omitempty"` // -C as stored (commas as '&')
	Restarts        int          `json:"restart_cnt"`
	Priority        int64        `json:"priority"`
	// MemPerCPU and MemPerNode are the job's memory request in MB as
	// asked (--mem-per-cpu or DefMemPerCPU; --mem): Slurm's req_mem with
	// and without its per-CPU flag, what seff reads. Both 0: no request.
	MemPerCPU  int64 `json:"memory_per_cpu,omitempty"`
	MemPerNode int64 `json:"memory_per_node,omitempty"`
	// Suspended is the seconds the job has spent suspended (scontrol
	// suspend), the current suspension included.
	Suspended int64 `json:"suspended,omitempty"`
	// CancelledBy is the uid that cancelled the job (sacct's "CANCELLED
	// by 1000"); set only for a CANCELLED job.
	CancelledBy *uint32    `json:"cancelled_by,omitempty"`
	Steps       []AcctStep `json:"steps,omitempty"`
}

// AcctStep is one step of a job (Loam records the batch step, "N.batch").
type AcctStep struct {
	StepID    string       `json:"step_id"` // "batch"
	Name      string       `json:"name"`
	State     job.State    `json:"state"`
	ExitCode  job.ExitCode `json:"exit_code"`
	StartTime int64        `json:"start_time,omitempty"`
	EndTime   int64        `json:"end_time,omitempty"`
	Elapsed   int64        `json:"elapsed"`
	Nodes     string       `json:"nodes,omitempty"`
	NodeCount int          `json:"node_count"`
	CPUs      int          `json:"cpus"`
	AllocTRES string       `json:"tres_alloc_str,omitempty"`
	// Tasks is the step's task count; Usage what its tasks used, as the
	// node daemons measured it at the step's end (usage.go).
	Tasks int        `json:"tasks,omitempty"`
	Usage *StepUsage `json:"usage,omitempty"`
	// NoExitCode: the step never ran (its node's Prolog failed); sacct
	// leaves its ExitCode blank, as Slurm's accounting has none.
	NoExitCode bool `json:"no_exit_code,omitempty"`
}

// AcctResponse answers PathAccounting, jobs in sacct's order (submit
// time, array job id, array task id, job id), a job's runs oldest first
// (Duplicates).
type AcctResponse struct {
	Now  int64     `json:"now"`
	Jobs []AcctJob `json:"jobs"`
}

// LowerASCII lowercases A-Z alone, byte by byte: Slurm's xstrtolower in
// the C locale, which sacct applies to its lists, and SQLite's NOCASE,
// by which the controller matches them. Both sides must fold alike.
func LowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
