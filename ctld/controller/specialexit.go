package controller

import "github.com/loamhpc/loam/pkg/job"

// queryState is the state squeue's -t compares with: SPECIAL_EXIT for a
// pending job requeue State=SpecialExit put back (requeue_op.go), else
// the shown state. Slurm keeps JOB_SPECIAL_EXIT as a flag over
// JOB_PENDING; squeue matches the flag (-t SE selects the job, -t PD does
// not, as on the peer) while scancel -t compares the base state (-t PD
// cancels it), so only job queries use this state; the job itself stays
// pending: the scheduler holds it and release works as for any held job.
func queryState(r *jobRecord) job.State {
	switch {
	case r.pending() && r.St.SpecialExit != "":
		return job.SpecialExit
	case stoppedNow(r): // stopped.go: the same for squeue -t ST and -t R
		return job.Stopped
	}
	return shownState(r)
}
