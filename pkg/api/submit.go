package api

import "github.com/loamhpc/loam/pkg/job"

// SubmitRequest is one sbatch submission. The controller fills in the
// submitter's identity (Job.UserID, GroupID, UserName) from the connection or
// credential and ignores what the client put there, except that root may run
// a job as another user through Job.RunAsUser (--uid).
type SubmitRequest struct {
	Job job.Request `json:"job"`
	// TestOnly (--test-only) runs every check and estimates the start
	// without creating a job.
	TestOnly bool `json:"test_only,omitempty"`
	// SubmitHost is the client's host name, as SLURM_SUBMIT_HOST shows it.
	SubmitHost string `json:"submit_host,omitempty"`
}

// SubmitResponse answers a SubmitRequest: the new job's id, or for TestOnly
// the estimate sbatch prints as "Job N to start at T using C processors on
// nodes X in partition P".
type SubmitResponse struct {
	JobID uint32 `json:"job_id"`
	// ArrayTaskCount is the number of tasks of an array job, 0 otherwise.
	ArrayTaskCount int `json:"array_task_count,omitempty"`
	// TestOnly is set for a --test-only request.
	TestOnly *TestOnlyResult `json:"test_only,omitempty"`
	// Warnings are printed by sbatch as "sbatch: warning: ...".
	Warnings []string `json:"warnings,omitempty"`
	// ClusterName is printed by sbatch --parsable ("N;cluster") when the
	// submission named a cluster.
	ClusterName string `json:"cluster_name,omitempty"`
}

// TestOnlyResult is the estimate of a --test-only submission. JobID is the
// id the job would have had (Slurm uses one up for every test).
type TestOnlyResult struct {
	JobID      uint32 `json:"job_id"`
	StartTime  int64  `json:"start_time"` // Unix seconds
	Nodes      string `json:"nodes"`      // host list
	Processors int    `json:"processors"`
	Partition  string `json:"partition"`
}
