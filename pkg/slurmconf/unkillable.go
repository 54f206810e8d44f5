package slurmconf

import (
	"math"
	"time"
)

// Unkillable is what a node does with a job's or step's processes that
// are still there UnkillableStepTimeout after SIGKILL: it runs
// UnkillableStepProgram, drains itself ("Kill task failed") and reports
// the job or step ended all the same.
type Unkillable struct {
	// Timeout is UnkillableStepTimeout (default 60 seconds).
	Timeout time.Duration
	// Program is UnkillableStepProgram, "" for none. slurmstepd runs it
	// only when it is executable, so a bad path is no configuration error.
	Program string
}

// DefaultUnkillableTimeout is UnkillableStepTimeout's default in Slurm
// 22.05 (read_config.h's DEFAULT_UNKILLABLE_TIMEOUT). Unlike later
// releases, 22.05 neither derives it from MessageTimeout nor checks it
// against it.
const DefaultUnkillableTimeout = 60 * time.Second

// decodeUnkillable reads the unkillable step keys into c.Unkillable. The
// timeout is a 16-bit count of seconds, as slurm.conf's parser reads it.
func decodeUnkillable(x *dec, c *Config) {
	u := &c.Unkillable
	x.str("UnkillableStepProgram", &u.Program)
	n := int64(u.Timeout / time.Second)
	x.count("UnkillableStepTimeout", &n, math.MaxUint16)
	u.Timeout = time.Duration(n) * time.Second
}
