package jobopt

import (
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/slurmtime"
)

// switchState is what sbatch -v needs of --switches beyond the request:
// whether the last wait given was one Slurm could not read (NO_VAL, or
// a negative time), and whether --switches itself was named on the
// command line or in the script, which is when -v shows it.
type switchState struct {
	invalid bool
	named   bool
}

// setSwitches reads --switches=COUNT[@TIME] and its two input variables:
// *_REQ_SWITCH (the count alone, so "2@1" is refused as a count) and
// *_WAIT4SWITCH (the time alone). COUNT is parse_int's positive number;
// TIME never fails: what Slurm cannot read leaves the wait unset, and
// the controller then uses max_switch_wait.
func setSwitches(b *builder, v value) error {
	count, wait, hasWait := v.str, "", false
	switch {
	case strings.HasSuffix(v.name, "_WAIT4SWITCH"):
		b.setSwitchWait(v.str)
		return nil
	case strings.HasSuffix(v.name, "_REQ_SWITCH"):
	default:
		b.switches.named = true
		count, wait, hasWait = strings.Cut(v.str, "@")
	}
	if hasWait {
		b.setSwitchWait(wait)
	}
	n, err := b.parseInt("--switches", count, true)
	if err != nil {
		return err
	}
	b.req.Switches = n
	return nil
}

// setSwitchWait records a wait; a negative or unreadable one is not sent.
func (b *builder) setSwitchWait(s string) {
	secs, ok := slurmtime.Str2Secs(s)
	b.switches.invalid = !ok || (secs < 0 && secs != slurmtime.InfiniteSecs)
	b.req.SwitchWait = nil
	if ok && secs >= 0 {
		b.req.SwitchWait = &secs
	}
}

// definedSwitches prints --switches as sbatch -v does: COUNT, or
// COUNT@WAIT with the wait as days-hh:mm:ss ("INVALID" for one it could
// not read); only when --switches was named, not for the variables alone.
func (b *builder) definedSwitches() (string, bool) {
	if !b.switches.named {
		return "", false
	}
	out := strconv.Itoa(b.req.Switches)
	switch w := b.req.SwitchWait; {
	case b.switches.invalid:
		out += "@INVALID"
	case w != nil:
		out += "@" + slurmtime.FormatDuration(time.Duration(*w)*time.Second)
	}
	return out, true
}
