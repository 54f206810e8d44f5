package command

import (
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// requeueFlags splits scontrol requeue's (and requeuehold's) arguments as
// Slurm's scontrol does: the leading arguments that are flags set them
// (any prefix of "Incomplete", empty included; "State=SpecialExit" or
// "State=SE"); from the first one that is not, every argument is a job
// list, so a misspelt flag is reported as an invalid job id.
func requeueFlags(args []string) (api.RequeueRequest, []string) {
	var req api.RequeueRequest
	for i, arg := range args {
		switch {
		case isPrefixFold(arg, "incomplete"):
			req.Incomplete = true
		case isSpecialExit(arg):
			req.SpecialExit = true
		default:
			return req, args[i:]
		}
	}
	return req, nil
}

// isPrefixFold reports whether s is a prefix of word, ignoring case.
func isPrefixFold(s, word string) bool {
	return len(s) <= len(word) && strings.EqualFold(s, word[:len(s)])
}

// isSpecialExit reports whether arg is Slurm's State=SpecialExit flag:
// the value begins with "specialexit" or "se", in any case.
func isSpecialExit(arg string) bool {
	val, ok := cutPrefixFold(arg, "state=")
	if !ok {
		return false
	}
	_, long := cutPrefixFold(val, "specialexit")
	_, short := cutPrefixFold(val, "se")
	return long || short
}

// shownJobState is the state scontrol prints: SPECIAL_EXIT for a pending
// job requeue State=SpecialExit put back, STOPPED for a running job
// scancel -s STOP stopped, as Slurm's JOB_SPECIAL_EXIT and JOB_STOPPED
// flags show.
func shownJobState(j *api.Job) job.State {
	switch {
	case j.SpecialExit && j.JobState == job.Pending:
		return job.SpecialExit
	case j.Stopped && j.JobState == job.Running:
		return job.Stopped
	}
	return j.JobState
}
