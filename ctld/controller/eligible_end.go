package controller

// acctEligible is the eligible time accounting keeps: the live record's.
// A job that ended without ever being eligible (held, waiting on a
// dependency or its begin time) keeps none, as the Slurm 22.05
// accounting peer shows it (Eligible "Unknown"); sacct's default window
// leaves such a job out (acct_runs_window.go).
func acctEligible(st *jobStatus) int64 {
	return st.Eligible
}
