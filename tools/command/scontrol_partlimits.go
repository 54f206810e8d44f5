package command

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// setPartitionLimit applies one of the partition keys of
// api.PartitionLimits, with Slurm 22.05's scontrol messages for a bad
// value. It reports whether tag is one of them.
func setPartitionLimit(l *api.PartitionLimits, tag, val, raw string) (msg string, known bool) {
	up := strings.ToUpper(val)
	invalid := func(name string) string {
		return "scontrol: error: Invalid " + name + " value: " + val + "\n" + partNoErrorLine
	}
	switch {
	case abbrev(tag, "OverTimeLimit", 5):
		if up == "UNLIMITED" || up == "INFINITE" {
			n := int64(api.UnlimitedSeconds)
			l.OverTimeLimit = &n
			break
		}
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil || n < 0 || n >= 65534 { // Slurm's 16-bit field, NO_VAL16 excluded
			return invalid("OverTimeLimit"), true
		}
		l.OverTimeLimit = &n
	case abbrev(tag, "DefMemPerCPU", 10), abbrev(tag, "DefMemPerNode", 10),
		abbrev(tag, "MaxMemPerCPU", 10), abbrev(tag, "MaxMemPerNode", 10):
		name, dst := "DefMemPerCPU", &l.DefMemPerCPU
		switch {
		case abbrev(tag, "DefMemPerNode", 10):
			name, dst = "DefMemPerNode", &l.DefMemPerNode
		case abbrev(tag, "MaxMemPerCPU", 10):
			name, dst = "MaxMemPerCPU", &l.MaxMemPerCPU
		case abbrev(tag, "MaxMemPerNode", 10):
			name, dst = "MaxMemPerNode", &l.MaxMemPerNode
		}
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil || n < 0 { // MB only: no unit suffix, no UNLIMITED
			return invalid(name), true
		}
		*dst = &n
	case abbrev(tag, "CpuBind", 7):
		v, err := slurmconf.ParseCPUBind(val)
		if err != nil {
			return "scontrol: error: Invalid input " + raw + "\n" + partNoErrorLine, true
		}
		l.CPUBind = &v // empty changes nothing (updatedCPUBind)
	case abbrev(tag, "AllowQos", 6):
		l.AllowQOS = &val
	case abbrev(tag, "DenyQos", 5):
		l.DenyQOS = &val
	case abbrev(tag, "PreemptMode", 3):
		if _, ok := slurmconf.ParsePreemptMode(val); !ok {
			return "scontrol: error: Invalid input: " + raw + "\n" + partNoErrorLine, true
		}
		l.PreemptMode = &val
	case abbrev(tag, "JobDefaults", 4):
		l.JobDefaults = &val
	case abbrev(tag, "TresBillingWeights", 1):
		l.BillingWeights = &val
	case abbrev(tag, "MaxCPUsPerNode", 4):
		n, ok := partCount(up)
		if !ok {
			return invalid("MaxCPUsPerNode"), true
		}
		l.MaxCPUsPerNode = &n
	case abbrev(tag, "AllocNodes", 6):
		l.AllocNodes = &val
	case abbrev(tag, "DisableRootJobs", 3), abbrev(tag, "ExclusiveUser", 3),
		abbrev(tag, "RootOnly", 3), abbrev(tag, "ReqResv", 3):
		return setPartitionFlag(l, tag, up, raw), true
	default:
		return "", false
	}
	return "", true
}

// setPartitionFlag is DisableRootJobs=, ExclusiveUser=, RootOnly= and
// ReqResv=: YES or NO.
func setPartitionFlag(l *api.PartitionLimits, tag, up, raw string) string {
	name, dst := "ReqResv", &l.ReqResv
	switch {
	case abbrev(tag, "DisableRootJobs", 3):
		name, dst = "DisableRootJobs", &l.DisableRootJobs
	case abbrev(tag, "ExclusiveUser", 3):
		name, dst = "ExclusiveUser", &l.ExclusiveUser
	case abbrev(tag, "RootOnly", 3):
		name, dst = "RootOnly", &l.RootOnly
	}
	if up != "YES" && up != "NO" {
		return "scontrol: error: Invalid input: " + raw + "\nscontrol: error: Acceptable " + name + " values are YES and NO\n" + partNoErrorLine
	}
	yes := up == "YES"
	*dst = &yes
	return ""
}
