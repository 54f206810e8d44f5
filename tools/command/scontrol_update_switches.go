package command

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// Slurm's NO_VAL and INFINITE, as the 32-bit values scontrol sends.
const (
	noVal32    = 0xfffffffe
	infinite32 = 0xffffffff
)

// setSwitches reads Switches=COUNT[@TIME] as Slurm 22.05's scontrol does:
// COUNT is strtol's leading number (none: 0, which clears --switches)
// kept as 32 bits (-1 is 4294967295, -2 is NO_VAL, which changes
// nothing); TIME, only right after the number, is read in minutes
// rounded up (time_str2mins) times 60 in 32 bits, so an unreadable or
// unlimited time comes out huge and the controller caps it with
// max_switch_wait, as the peer shows Switches=4@ as 4@00:05:00.
func setSwitches(u *api.JobUpdate, v string) {
	n, rest := strtol(v)
	if count := uint32(n); count != noVal32 {
		c := int(count)
		u.Switches = &c
	}
	if rest == "" || rest[0] != '@' {
		return
	}
	var mins uint32
	switch secs, ok := slurmtime.Str2Secs(rest[1:]); {
	case !ok:
		mins = noVal32
	case secs == slurmtime.InfiniteSecs:
		mins = infinite32
	default:
		mins = uint32((secs + 59) / 60)
	}
	w := int64(mins * 60)
	u.SwitchWait = &w
}

// setSwitchWait reads wait-for-switch=SECONDS with parse_uint32.
func setSwitchWait(u *api.JobUpdate, v string) (string, fieldOutcome) {
	n, ok := parseUint32C(v)
	if !ok {
		return "scontrol: error: Invalid wait-for-switch value: " + v + "\n", fieldAbort
	}
	u.SwitchWait = &n
	return "", fieldSet
}
