package command

import (
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// setJobRecorded applies the keys for a job's node sharing and for the
// options Loam records without acting on them (Reboot, DelayBoot), and
// passes on those Slurm's controller answers for itself (WCKey,
// BurstBuffer, ClusterFeatures, TresBind, TresFreq: the controller checks
// their values); any other key ends the request, as Slurm's scontrol
// does.
func setJobRecorded(u *api.JobUpdate, a updateArg) (string, fieldOutcome) {
	t, v := a.tag, a.val
	switch {
	case abbrev(t, "OverSubscribe", 2), abbrev(t, "Shared", 2):
		n, ok := yesNoUint16(v)
		if !ok {
			return "scontrol: error: Invalid OverSubscribe value: " + v + "\n", fieldAbort
		}
		u.OverSubscribe = &n
	case abbrev(t, "Reboot", 3):
		n, ok := yesNoUint16(v)
		if !ok {
			return "scontrol: error: Invalid reboot value: " + v + "\n", fieldAbort
		}
		u.Reboot = &n
	case abbrev(t, "DelayBoot", 5):
		secs, ok := slurmtime.Str2Secs(v)
		if !ok {
			return "scontrol: error: Invalid DelayBoot value\n", fieldAbort
		}
		u.DelayBoot = &secs
	case abbrev(t, "WCKey", 1):
		u.WCKey = &v
	case abbrev(t, "BurstBuffer", 1):
		u.BurstBuffer = &v
	case abbrev(t, "ClusterFeatures", 8):
		u.ClusterFeatures = &v
	case abbrev(t, "TresBind", 5):
		u.TRESBind = &v
	case abbrev(t, "TresFreq", 5):
		u.TRESFreq = &v
	default:
		return "Update of this parameter is not supported: " + a.raw + "\nRequest aborted\n", fieldAbort
	}
	return "", fieldSet
}

// yesNoUint16 reads a flag as Slurm's scontrol reads OverSubscribe= and
// Reboot=: a prefix of YES (1) or NO (0) in any case, else a number as
// parse_uint16 reads it (an empty value is 0).
func yesNoUint16(v string) (int, bool) {
	switch {
	case v != "" && strings.HasPrefix("YES", strings.ToUpper(v)):
		return 1, true
	case v != "" && strings.HasPrefix("NO", strings.ToUpper(v)):
		return 0, true
	}
	n, ok := parseUint16C(v)
	return int(n), ok
}
