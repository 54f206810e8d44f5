package command

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// heldDesc reports whether a held job's description is what Slurm prints
// as its reason: a job scontrol requeuehold put back shows "job requeued
// in held state" (scontrol: Reason=job_requeued_in_held_state), also
// while its processes end (COMPLETING).
func heldDesc(j *api.Job) bool {
	return (j.JobState == job.Pending || j.JobState == job.Completing) && (j.StateReason == job.ReasonJobHeldAdmin || j.StateReason == job.ReasonJobHeldUser)
}
