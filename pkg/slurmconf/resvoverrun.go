package slurmconf

import (
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/slurmtime"
)

// maxResvOverRun is the largest finite ResvOverRun Slurm accepts, in
// minutes (a 16-bit value whose top is kept for UNLIMITED).
const maxResvOverRun = 65533

// resvOverRun decodes ResvOverRun as Slurm reads it: whole minutes, or
// UNLIMITED (also INFINITE), any case.
func (x *dec) resvOverRun(name string, dst *time.Duration) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	v := strings.TrimSpace(f.Value)
	if strings.EqualFold(v, "UNLIMITED") || strings.EqualFold(v, "INFINITE") {
		*dst = slurmtime.Unlimited
		return
	}
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil || n > maxResvOverRun {
		x.bad(f, "%q is not a number of minutes (0-%d) or UNLIMITED", f.Value, maxResvOverRun)
		return
	}
	*dst = time.Duration(n) * time.Minute
}

// resvOverRunText is ResvOverRun as scontrol show config prints it.
func resvOverRunText(d time.Duration) string {
	if d == slurmtime.Unlimited {
		return "UNLIMITED"
	}
	return strconv.FormatInt(int64(d/time.Minute), 10) + " min"
}
