package slurmconf

import (
	"time"

	"github.com/loamhpc/loam/pkg/rlimit"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// Inherit marks a per-user count that is not set on the UserName line, so
// the tenant's per-user default applies.
const Inherit int64 = -1

const day = 24 * time.Hour

// Default returns the configuration with every built-in default and no
// nodes, partitions or tenants. Parse starts from it; the values follow
// Slurm 22.05's defaults except where Loam's differ (ports, spool paths and
// the Loam keys), as slurm.conf(5) lists.
func Default() *Config {
	return &Config{
		SlurmctldPort:     6817,
		SlurmdPort:        6818,
		StateSaveLocation: "/var/spool/loam/ctld",
		SlurmdSpoolDir:    "/var/spool/loam/noded",
		TmpFS:             "/tmp",
		SlurmUser:         "root",
		MailProg:          "/bin/mail",
		KillWait:          30 * time.Second,
		Unkillable:        Unkillable{Timeout: DefaultUnkillableTimeout},
		MinJobAge:         300 * time.Second,
		SlurmdTimeout:     300 * time.Second,
		MessageTimeout:    10 * time.Second,
		MaxJobCount:       10000,
		MaxArraySize:      1001,
		MaxTasksPerNode:   DefaultMaxTasksPerNode,
		MaxStepCount:      DefaultMaxStepCount,
		SchedulerType:     "sched/backfill",
		SchedulerParameters: SchedulerParameters{
			SchedInterval:     60 * time.Second,
			BfInterval:        30 * time.Second,
			BfMaxJobTest:      500,
			BfResolution:      60 * time.Second,
			BfWindow:          day,
			DefaultQueueDepth: 100,
			MaxSwitchWait:     300 * time.Second,
		},
		SelectType:                 "select/cons_tres",
		TopologyPlugin:             "topology/none",
		PriorityType:               "priority/basic",
		PriorityDecayHalfLife:      7 * day,
		PriorityMaxAge:             7 * day,
		PriorityWeightCompensation: 100,
		PreemptType:                "preempt/none",
		PreemptMode:                PreemptOff,
		MaxMemPerNode:              Unlimited,
		JobRequeue:                 true,
		PropagateRLimits:           rlimit.All,
		LoamKeyFile:                "/etc/loam/loam.key",
		LoamCtldSocket:             "/run/loam/ctld.sock",
		LoamNodedSocket:            "/run/loam/noded.sock",
	}
}

// defaultNode is a node with Slurm's defaults before its line is applied.
func defaultNode() Node {
	return Node{Boards: 1, CoresPerSocket: 1, ThreadsPerCore: 1, RealMemory: 1, Weight: 1, State: "UNKNOWN", AutoDetect: "off"}
}

// defaultPartition is a partition with Slurm's defaults; the fields that
// inherit cluster values are filled in when the partition is built.
func defaultPartition(c *Config) Partition {
	return Partition{
		State:             "UP",
		MaxTime:           slurmtime.Unlimited,
		MaxNodes:          Unlimited,
		PriorityTier:      1,
		PriorityJobFactor: 1,
		PreemptMode:       c.PreemptMode,
		OverSubscribe:     "NO",
		DefMemPerCPU:      c.DefMemPerCPU,
		DefMemPerGPU:      c.DefMemPerGPU,
		MaxMemPerNode:     c.MaxMemPerNode,
		DefMemPerNode:     c.DefMemPerNode,
		MaxMemPerCPU:      c.MaxMemPerCPU,
	}
}

// QueueDefaults returns the values Loam's queue keys take in a partition of
// class when the partition line does not set them. tenants.conf(5) and
// slurm.conf(5) document the same table.
func QueueDefaults(class QueueClass) Queue {
	q := Queue{
		QueueClass:          class,
		AgingRate:           100,
		AgingCap:            2400,
		ReservationTimeout:  2 * time.Hour,
		ReservationCooldown: 30 * time.Minute,
		ReservationDepth:    2,
		ReservationMode:     ReserveBackfill,
		CheckpointSignal:    "USR1",
	}
	switch class {
	case ClassUrgent:
		q.AgingRate = 200
		q.ReservationTimeout = 30 * time.Minute
		q.ReservationCooldown = 10 * time.Minute
	case ClassBatch:
		q.AgingRate = 50
		q.AgingCap = 7200
		q.ReservationTimeout = 6 * time.Hour
		q.ReservationCooldown = time.Hour
		q.ReservationDepth = 1
	}
	return q
}

// deriveClasses gives a queue class to every partition whose QueueClass is
// not written, from the rank of its PriorityTier among the distinct tiers
// of all partitions: with one tier every partition is normal; with two, the
// higher is normal and the lower batch; with three or more, the highest is
// urgent, the lowest batch and the rest normal.
func deriveClasses(parts []Partition, written []bool) []QueueClass {
	tiers := map[int]bool{}
	lo, hi := 0, 0
	for i, p := range parts {
		if i == 0 || p.PriorityTier < lo {
			lo = p.PriorityTier
		}
		if i == 0 || p.PriorityTier > hi {
			hi = p.PriorityTier
		}
		tiers[p.PriorityTier] = true
	}
	out := make([]QueueClass, len(parts))
	for i, p := range parts {
		switch {
		case written[i]:
			out[i] = p.QueueClass
		case len(tiers) >= 3 && p.PriorityTier == hi:
			out[i] = ClassUrgent
		case len(tiers) >= 2 && p.PriorityTier == lo:
			out[i] = ClassBatch
		default:
			out[i] = ClassNormal
		}
	}
	return out
}
