package api

import "github.com/loamhpc/loam/pkg/job"

// Allocation paths: salloc, and srun outside an allocation, create a job
// without a batch script (an interactive allocation), wait for it to
// start, run what they run, and release it.
const (
	// PathAllocate takes AllocateRequest and answers SubmitResponse.
	PathAllocate = "/v1/allocations/create"
	// PathAllocationWait takes AllocationWaitRequest and answers Allocation
	// once the job runs on every node, has ended, or the wait timed out.
	PathAllocationWait = "/v1/allocations/wait"
	// PathAllocationRelease takes AllocationReleaseRequest and answers an
	// empty object.
	PathAllocationRelease = "/v1/allocations/release"
)

// AllocateRequest submits an interactive allocation: Job as sbatch would
// send it, without a script (the controller refuses one).
type AllocateRequest struct {
	Job        job.Request `json:"job"`
	SubmitHost string      `json:"submit_host,omitempty"`
	// Command is the program srun runs in the allocation it makes, as
	// given ("sleep", "/bin/sleep"): scontrol shows it as Command, as
	// Slurm does; salloc sends none (Command=(null) on the peer).
	Command string `json:"command,omitempty"`
	// TestOnly (srun --test-only) runs the checks and answers where and
	// when the job would start (SubmitResponse.TestOnly) without making it.
	TestOnly bool `json:"test_only,omitempty"`
}

// AllocationWaitRequest waits up to Timeout seconds (at most a minute)
// for job JobID to run.
type AllocationWaitRequest struct {
	JobID   uint32 `json:"job_id"`
	Timeout int64  `json:"timeout"`
}

// CausePrologFailed is Allocation.Cause for a job PrologSlurmctld's
// failure cancelled.
const CausePrologFailed = "PrologSlurmctld failed, job killed"

// Allocation is an interactive job as its client sees it: Ready once it
// runs on its nodes, Ended once it finished (State then says how).
type Allocation struct {
	JobID  uint32     `json:"job_id"`
	State  job.State  `json:"job_state"`
	Reason job.Reason `json:"state_reason"`
	Ready  bool       `json:"ready,omitempty"`
	Ended  bool       `json:"ended,omitempty"`
	// Cause is why the controller ended the job before it ran, as its
	// client prints it (CausePrologFailed), else empty.
	Cause string `json:"cause,omitempty"`
	// The job's name, partition and allocation, for the SLURM_* variables
	// salloc and srun set.
	Name         string           `json:"name"`
	Partition    string           `json:"partition"`
	ClusterName  string           `json:"cluster_name"`
	NodeList     string           `json:"node_list,omitempty"`
	Nodes        []NodeAllocation `json:"nodes,omitempty"`
	TasksPerNode []int            `json:"tasks_per_node,omitempty"`
	// NTasks is -n when given (0 otherwise); MemPerCPU and MemPerNode the
	// memory the job got, MB.
	NTasks     int   `json:"tasks,omitempty"`
	MemPerCPU  int64 `json:"memory_per_cpu,omitempty"`
	MemPerNode int64 `json:"memory_per_node,omitempty"`
}

// AllocationReleaseRequest ends an interactive allocation: its client's
// command exited with ExitCode (the job ends COMPLETED, or FAILED with a
// non-zero code), or was told to stop.
type AllocationReleaseRequest struct {
	JobID    uint32       `json:"job_id"`
	ExitCode job.ExitCode `json:"exit_code"`
}
