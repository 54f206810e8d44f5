package slurmconf

import (
	"strings"
	"time"
)

// Limits that change a job's fate: EnforcePartLimits (refuse at submit
// what breaks a partition's limits), OverTimeLimit (how long a job may run
// past its time limit before it is ended) and DisableRootJobs (root may
// not submit), as cluster keys and, for the last two, partition keys.

// EnforcePartLimits values, as scontrol show config prints them.
const (
	EnforceNo  = "NO"
	EnforceAll = "ALL"
	EnforceAny = "ANY"
)

// OverTimeInherit marks a partition without its own OverTimeLimit: the
// cluster's applies (scontrol show partition prints NONE).
const OverTimeInherit time.Duration = -1

// decodeLimits reads the cluster keys.
func decodeLimits(x *dec, c *Config) {
	c.EnforcePartLimits = EnforceNo
	if f, ok := x.get("EnforcePartLimits"); ok {
		v, good := enforceValue(f.Value)
		if !good {
			x.bad(f, "%q is not one of ALL, ANY, NO, YES", f.Value)
		}
		c.EnforcePartLimits = v
	}
	x.resvOverRun("OverTimeLimit", &c.OverTimeLimit) // minutes or UNLIMITED, as ResvOverRun
	x.boolean("DisableRootJobs", &c.DisableRootJobs)
}

// enforceValue reads EnforcePartLimits as Slurm does: YES is ANY.
func enforceValue(s string) (string, bool) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "ALL":
		return EnforceAll, true
	case "ANY", "YES":
		return EnforceAny, true
	case "NO":
		return EnforceNo, true
	}
	return EnforceNo, false
}

// decodePartLimits reads a partition's keys; unset, DisableRootJobs is
// the cluster's and OverTimeLimit defers to it.
func decodePartLimits(x *dec, p *Partition, c *Config) {
	p.OverTimeLimit = OverTimeInherit
	x.resvOverRun("OverTimeLimit", &p.OverTimeLimit)
	p.DisableRootJobs = c.DisableRootJobs
	x.boolean("DisableRootJobs", &p.DisableRootJobs)
}

// OverTime is how long a job in p may run past its time limit: the
// partition's OverTimeLimit, else the cluster's (slurmtime.Unlimited: the
// job is never ended for its time).
func (c *Config) OverTime(p *Partition) time.Duration {
	if p != nil && p.OverTimeLimit != OverTimeInherit {
		return p.OverTimeLimit
	}
	return c.OverTimeLimit
}

// enforceText is EnforcePartLimits as scontrol show config prints it.
func enforceText(v string) string {
	if v == "" {
		return EnforceNo
	}
	return v
}
