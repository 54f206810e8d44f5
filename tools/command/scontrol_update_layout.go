package command

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// maxSiteFactor is Slurm's NICE_OFFSET - 3: the largest site factor, up
// or down, scontrol sends.
const maxSiteFactor = 2147483645

// setJobLayout applies the keys for a job's priority site factor, its
// accrue time, its -B counts, its GPU requests by job, task and socket,
// and the keys Slurm's scontrol reads that Loam's controller refuses
// with the peer's answers (CoreSpec, ThreadSpec, Clusters); UserID only
// names the user of a JobName (it changes nothing by itself). Other keys
// go on to setJobText.
func (s *scontrol) setJobLayout(u *api.JobUpdate, a updateArg) (string, fieldOutcome) {
	t, v := a.tag, a.val
	switch {
	case a.bare && abbrev(t, "ResetAccrueTime", 3):
		u.ResetAccrueTime = true
	case abbrev(t, "SiteFactor", 5):
		// strtoll: what does not read is 0, as on the peer.
		n, _ := job.Strtol(v)
		if n > maxSiteFactor || n < -maxSiteFactor {
			return "scontrol: error: SiteFactor value out of range (+/- 2147483645). Value ignored\n", fieldAbort
		}
		u.SiteFactor = &n
	case abbrev(t, "ReqSockets", 4):
		return setLayoutCount(&u.SocketsPerNode, "ReqSockets", v)
	case abbrev(t, "ReqCores", 4):
		return setLayoutCount(&u.CoresPerSocket, "ReqCores", v)
	case abbrev(t, "ReqThreads", 4):
		return setLayoutCount(&u.ThreadsPerCore, "ReqThreads", v)
	case abbrev(t, "CoreSpec", 4):
		return setCoreSpec(u, "CoreSpec", v)
	case abbrev(t, "ThreadSpec", 4):
		return setCoreSpec(u, "ThreadSpec", v)
	case abbrev(t, "UserID", 3):
		if s.env.Users != nil {
			if _, ok := s.env.Users.UID(v); !ok {
				return "Invalid UserID: " + v + "\nRequest aborted\n", fieldAbort
			}
		}
	case abbrev(t, "Clusters", 8):
		u.Clusters = &v
	default:
		return setJobTRES(u, a)
	}
	return "", fieldSet
}

// setJobTRES takes the TRES keys as given: the controller reads them.
func setJobTRES(u *api.JobUpdate, a updateArg) (string, fieldOutcome) {
	t, v := a.tag, a.val
	switch {
	case abbrev(t, "TresPerJob", 8):
		u.TRESPerJob = &v
	case abbrev(t, "TresPerTask", 8):
		u.TRESPerTask = &v
	case abbrev(t, "TresPerSocket", 8):
		u.TRESPerSocket = &v
	case abbrev(t, "MemPerTres", 5):
		u.MemPerTRES = &v
	case abbrev(t, "CpusPerTres", 9):
		u.CPUsPerTRES = &v
	default:
		return setJobText(u, a)
	}
	return "", fieldSet
}

// setLayoutCount reads ReqSockets=, ReqCores= and ReqThreads= as Slurm's
// parse_uint16 (an empty value is 0).
func setLayoutCount(dst **int, name, v string) (string, fieldOutcome) {
	n, ok := parseUint16C(v)
	if !ok {
		return "scontrol: error: Invalid " + name + " value: " + v + "\n", fieldAbort
	}
	c := int(n)
	*dst = &c
	return "", fieldSet
}

// setCoreSpec reads CoreSpec= and ThreadSpec=: "-1" or "*" (none, sent
// as -1) or a parse_uint16 number.
func setCoreSpec(u *api.JobUpdate, name, v string) (string, fieldOutcome) {
	c := -1
	if v != "-1" && v != "*" {
		n, ok := parseUint16C(v)
		if !ok {
			return "scontrol: error: Invalid " + name + " value: " + v + "\n", fieldAbort
		}
		c = int(n)
	}
	u.CoreSpec = &c
	return "", fieldSet
}
