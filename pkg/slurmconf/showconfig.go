package slurmconf

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/slurmtime"
)

// KeyValue is one line of `scontrol show config`.
type KeyValue struct {
	Key   string
	Value string
}

// String pads the key as scontrol does: "KillWait                = 30 sec".
func (kv KeyValue) String() string { return fmt.Sprintf("%-23s = %s", kv.Key, kv.Value) }

// ShowConfig returns every key of Slurm 22.05's `scontrol show config`, in
// its order and with its spelling and value formats, followed by Loam's own
// keys (LoamKeyFile, LoamCtldSocket, LoamNodedSocket,
// PriorityWeightCompensation). Keys Loam honours print Loam's value; Slurm
// keys Loam reads but ignores print as Slurm prints what was written; keys
// not written print Slurm 22.05's default. rt supplies what is not in the
// files.
func (c *Config) ShowConfig(rt ShowContext) []KeyValue {
	s := &shower{c: c, rt: rt}
	s.slurmKeys()
	return append(s.kv, c.loamKeys()...)
}

// loamKeys are Loam's own cluster keys as show config prints them.
func (c *Config) loamKeys() []KeyValue {
	return []KeyValue{
		{"LoamCtldSocket", c.LoamCtldSocket},
		{"LoamKeyFile", c.LoamKeyFile},
		{"LoamNodedSocket", c.LoamNodedSocket},
		{"PriorityWeightCompensation", strconv.FormatFloat(c.PriorityWeightCompensation, 'f', -1, 64)},
	}
}

// dumpKeys returns the cluster keys Loam honours, for Dump: the ones that
// change what Loam does, without Slurm's defaults for keys it ignores.
func (c *Config) dumpKeys() []KeyValue {
	kv := []KeyValue{
		{"AccountingStorageTRES", orNull(strings.Join(c.AccountingStorageTRES, ","))},
		{"ClusterName", c.ClusterName},
	}
	if c.DefMemPerCPU > 0 {
		kv = append(kv, KeyValue{"DefMemPerCPU", strconv.FormatInt(c.DefMemPerCPU, 10)})
	} else {
		kv = append(kv, KeyValue{"DefMemPerNode", "UNLIMITED"})
	}
	kv = append(kv,
		KeyValue{"DependencyParameters", orNull(strings.Join(c.DependencyParameters, ","))},
		KeyValue{"GresTypes", orNull(strings.Join(c.GresTypes, ","))},
		KeyValue{"InactiveLimit", secs(c.InactiveLimit)},
		KeyValue{"JobRequeue", boolDigit(c.JobRequeue)},
		KeyValue{"KillWait", secs(c.KillWait)},
		KeyValue{"MailProg", c.MailProg},
		KeyValue{"MaxArraySize", strconv.FormatInt(c.MaxArraySize, 10)},
		KeyValue{"MaxJobCount", strconv.FormatInt(c.MaxJobCount, 10)},
		KeyValue{"MaxMemPerNode", memOrUnlimited(c.MaxMemPerNode)},
		KeyValue{"MessageTimeout", secs(c.MessageTimeout)},
		KeyValue{"MinJobAge", secs(c.MinJobAge)},
		KeyValue{"PreemptMode", string(c.PreemptMode)},
		KeyValue{"PreemptType", c.PreemptType},
		KeyValue{"PreemptExemptTime", slurmtime.FormatDuration(c.PreemptExemptTime)},
		KeyValue{"PriorityDecayHalfLife", slurmtime.FormatDuration(c.PriorityDecayHalfLife)},
		KeyValue{"PriorityFavorSmall", yesNo(c.PriorityFavorSmall)},
		KeyValue{"PriorityMaxAge", slurmtime.FormatDuration(c.PriorityMaxAge)},
		KeyValue{"PriorityType", c.PriorityType},
		KeyValue{"PriorityWeightAge", strconv.FormatInt(c.PriorityWeightAge, 10)},
		KeyValue{"PriorityWeightFairShare", strconv.FormatInt(c.PriorityWeightFairshare, 10)},
		KeyValue{"PriorityWeightJobSize", strconv.FormatInt(c.PriorityWeightJobSize, 10)},
		KeyValue{"PriorityWeightPartition", strconv.FormatInt(c.PriorityWeightPartition, 10)},
		KeyValue{"PriorityWeightQOS", strconv.FormatInt(c.PriorityWeightQOS, 10)},
		KeyValue{"PriorityWeightTRES", orNull(formatWeights(c.PriorityWeightTRES))},
		KeyValue{"ResvOverRun", resvOverRunText(c.ResvOverRun)},
		KeyValue{"ReturnToService", strconv.Itoa(c.ReturnToService)},
		KeyValue{"SchedulerParameters", orNull(c.SchedulerParameters.Raw)},
		KeyValue{"SchedulerType", c.SchedulerType},
		KeyValue{"SelectType", c.SelectType},
		KeyValue{"SelectTypeParameters", orNull(c.SelectTypeParameters)},
		KeyValue{"SlurmUser", c.SlurmUser},
	)
	for i, h := range c.SlurmctldHosts {
		v := h.Host
		if h.Addr != h.Host {
			v += "(" + h.Addr + ")"
		}
		kv = append(kv, KeyValue{fmt.Sprintf("SlurmctldHost[%d]", i), v})
	}
	kv = append(kv,
		KeyValue{"SlurmctldPort", strconv.Itoa(c.SlurmctldPort)},
		KeyValue{"SlurmdPort", strconv.Itoa(c.SlurmdPort)},
		KeyValue{"SlurmdSpoolDir", c.SlurmdSpoolDir},
		KeyValue{"SlurmdTimeout", secs(c.SlurmdTimeout)},
		KeyValue{"StateSaveLocation", c.StateSaveLocation},
		KeyValue{"TopologyPlugin", c.TopologyPlugin},
	)
	return append(kv, c.loamKeys()...)
}

func secs(d time.Duration) string { return strconv.FormatInt(int64(d/time.Second), 10) + " sec" }

func orNull(s string) string {
	if s == "" {
		return "(null)"
	}
	return s
}

func boolDigit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func yesNo(b bool) string {
	if b {
		return "Yes"
	}
	return "No"
}

func memOrUnlimited(mb int64) string {
	if mb == Unlimited {
		return "UNLIMITED"
	}
	return strconv.FormatInt(mb, 10)
}

func formatWeights(w map[string]float64) string {
	t := TRES{}
	for k := range w {
		t[k] = 0
	}
	parts := make([]string, 0, len(w))
	for _, k := range t.Names() {
		parts = append(parts, k+"="+strconv.FormatFloat(w[k], 'f', -1, 64))
	}
	return strings.Join(parts, ",")
}
