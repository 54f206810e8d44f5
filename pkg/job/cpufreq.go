package job

import (
	"strconv"
	"strings"
)

// CPUFreq is --cpu-freq as Slurm encodes it in the job record: kHz values,
// or one of the CPUFreq* words, which have the top bit set. 0 is not given
// (Slurm's NO_VAL). squeue --json prints these numbers as they are.
type CPUFreq struct {
	Min uint32 `json:"min,omitempty"`
	Max uint32 `json:"max,omitempty"`
	Gov uint32 `json:"governor,omitempty"`
}

// The words of --cpu-freq, with Slurm's values (slurm.h CPU_FREQ_*).
const (
	cpuFreqRangeFlag = 0x80000000

	CPUFreqLow          = 0x80000001
	CPUFreqMedium       = 0x80000002
	CPUFreqHigh         = 0x80000003
	CPUFreqHighM1       = 0x80000004
	CPUFreqConservative = 0x88000000
	CPUFreqOnDemand     = 0x84000000
	CPUFreqPerformance  = 0x82000000
	CPUFreqPowerSave    = 0x81000000
	CPUFreqUserSpace    = 0x80800000
	CPUFreqSchedUtil    = 0x80400000
)

// NTasksPerCoreAny is the tasks per core --hint=multithread asks for
// (Slurm's INFINITE16): shown as not given, exported as itself in
// SLURM_NTASKS_PER_CORE.
const NTasksPerCoreAny = 0xffff

// CPUFreqError is a --cpu-freq value Slurm refuses, worded as sbatch
// words it (before its "Invalid --cpu-freq argument").
type CPUFreqError struct{ Msg string }

func (e *CPUFreqError) Error() string { return e.Msg }

// ParseCPUFreq reads --cpu-freq=p1[-p2][:governor] as Slurm's
// cpu_freq_verify_cmdline: words match by their first letters
// ("perf", "hi"), a lone p1 may be a governor, a governor after the
// colon needs p2, and p1 may not be above p2.
func ParseCPUFreq(spec string) (CPUFreq, error) {
	var f CPUFreq
	rest, gov, hasGov := strings.Cut(spec, ":")
	p1, p2, isRange := strings.Cut(rest, "-")
	if g := cpuFreqGovernor(p1); g != 0 {
		if hasGov {
			return f, &CPUFreqError{"governor cannot be specified twice " + p1 + "{-}:" + gov + " in --cpu-freq"}
		}
		f.Gov = g
	} else {
		v, err := cpuFreqValue(p1)
		if err != nil {
			return f, err
		}
		f.Max = v
	}
	if isRange {
		v, err := cpuFreqValue(p2)
		if err != nil {
			return f, err
		}
		f.Min, f.Max = f.Max, v
		if f.Max < f.Min {
			return f, &CPUFreqError{"min cpu-frec (" + p1 + ") must be < max cpu-freq (" + p2 + ")"}
		}
	}
	if hasGov {
		if !isRange {
			return f, &CPUFreqError{"gov on cpu-frec (" + gov + ") illegal without max"}
		}
		if f.Gov = cpuFreqGovernor(gov); f.Gov == 0 {
			return f, &CPUFreqError{"illegal governor: " + gov + " on --cpu-freq"}
		}
	}
	return f, nil
}

// cpuFreqGovernor is _cpu_freq_check_gov: 0 when s names no governor.
func cpuFreqGovernor(s string) uint32 {
	for _, g := range []struct {
		prefix string
		val    uint32
	}{{"co", CPUFreqConservative}, {"perf", CPUFreqPerformance}, {"pow", CPUFreqPowerSave},
		{"user", CPUFreqUserSpace}, {"onde", CPUFreqOnDemand}, {"sche", CPUFreqSchedUtil}} {
		if hasPrefixFold(s, g.prefix) {
			return g.val
		}
	}
	return 0
}

// cpuFreqValue is _cpu_freq_check_freq: a word or a number of kHz as
// strtoul reads it (digits first, anything after them ignored).
func cpuFreqValue(s string) (uint32, error) {
	switch {
	case hasPrefixFold(s, "lo"):
		return CPUFreqLow, nil
	case hasPrefixFold(s, "him1"), hasPrefixFold(s, "highm1"):
		return CPUFreqHighM1, nil
	case hasPrefixFold(s, "hi"):
		return CPUFreqHigh, nil
	case hasPrefixFold(s, "med"):
		return CPUFreqMedium, nil
	}
	digits := strings.TrimLeft(s, " \t")
	n := 0
	for n < len(digits) && digits[n] >= '0' && digits[n] <= '9' {
		n++
	}
	if v, err := strconv.ParseUint(digits[:n], 10, 32); err == nil && v != 0 {
		return uint32(v), nil
	}
	return 0, &CPUFreqError{"unrecognized --cpu-freq argument \"" + s + "\""}
}

// String is the line scontrol show job prints (cpu_freq_debug): the
// values given, each followed by a blank but the governor
// ("CPU_max_freq=High " with its blank, "CPU_min_freq=1000
// CPU_max_freq=2000 Governor=Performance"); "" when nothing was given.
func (f CPUFreq) String() string {
	var b strings.Builder
	if f.Min != 0 {
		b.WriteString("CPU_min_freq=" + cpuFreqString(f.Min) + " ")
	}
	if f.Max != 0 {
		b.WriteString("CPU_max_freq=" + cpuFreqString(f.Max) + " ")
	}
	if f.Gov != 0 {
		b.WriteString("Governor=" + cpuFreqString(f.Gov))
	}
	return b.String()
}

// cpuFreqString is cpu_freq_to_string for a value the job record holds.
func cpuFreqString(v uint32) string {
	switch v {
	case CPUFreqLow:
		return "Low"
	case CPUFreqMedium:
		return "Medium"
	case CPUFreqHighM1:
		return "Highm1"
	case CPUFreqHigh:
		return "High"
	case CPUFreqConservative:
		return "Conservative"
	case CPUFreqPerformance:
		return "Performance"
	case CPUFreqPowerSave:
		return "PowerSave"
	case CPUFreqUserSpace:
		return "UserSpace"
	case CPUFreqOnDemand:
		return "OnDemand"
	case CPUFreqSchedUtil:
		return "SchedUtil"
	}
	if v&cpuFreqRangeFlag != 0 {
		return "Unknown"
	}
	return strconv.FormatUint(uint64(v), 10)
}
