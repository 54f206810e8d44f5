package cluster

import (
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// SchedConfig turns a loaded and validated configuration into the
// scheduler's: partitions with their queue class, tier, limits, aging,
// reservation and preemption keys; tenants and users from tenants.conf;
// multifactor weights; PreemptExemptTime; topology.conf's switches.
//
// Unit conventions: an UNLIMITED time or node count becomes 0 (sched's
// "no limit"); an absent or UNLIMITED TRES limit becomes sched.Unlimited; an
// absent guarantee is 0; an absent lend limit lends the whole guarantee, as
// tenants.conf documents. A user listed under several accounts gets one
// sched.User per account.
func SchedConfig(cfg *slurmconf.Config, policy sched.Policy) sched.Config {
	out := sched.Config{
		Policy:            policy,
		PreemptExemptTime: max(cfg.PreemptExemptTime, 0),
		Priority: sched.PriorityConfig{
			WeightAge:          float64(cfg.PriorityWeightAge),
			WeightFairshare:    float64(cfg.PriorityWeightFairshare),
			WeightJobSize:      float64(cfg.PriorityWeightJobSize),
			WeightPartition:    float64(cfg.PriorityWeightPartition),
			WeightQOS:          float64(cfg.PriorityWeightQOS),
			WeightCompensation: cfg.PriorityWeightCompensation,
			MaxAge:             cfg.PriorityMaxAge,
			DecayHalfLife:      cfg.PriorityDecayHalfLife,
			FavorSmall:         cfg.PriorityFavorSmall,
		},
	}
	for _, p := range cfg.Partitions {
		out.Partitions = append(out.Partitions, schedPartition(p))
	}
	for _, t := range cfg.Tenants {
		out.Tenants = append(out.Tenants, schedTenant(t))
	}
	for _, u := range cfg.Users {
		for _, acct := range u.Accounts {
			out.Users = append(out.Users, sched.User{Name: u.Name, Tenant: acct, Share: u.Share,
				Max: limitTRES(u.GrpTRES), MaxJobs: inheritCount(u.MaxJobs), MaxSubmitJobs: inheritCount(u.MaxSubmitJobs)})
		}
	}
	out.Backfill = schedBackfill(cfg.SchedulerParameters)
	if cfg.Topology != nil {
		for _, s := range cfg.Topology.Switches {
			out.Switches = append(out.Switches, sched.Switch{Name: s.Name, Nodes: s.Nodes, Switches: s.Switches})
		}
	}
	return out
}

// schedBackfill maps the sched/backfill options the Slurm baseline policy
// follows. bf_job_part_count_reserve is read from the raw value: slurmconf
// keeps only the options the controller itself uses.
func schedBackfill(sp slurmconf.SchedulerParameters) sched.Backfill {
	b := sched.Backfill{Window: sp.BfWindow, MaxJobTest: int(sp.BfMaxJobTest)}
	for _, opt := range strings.Split(sp.Raw, ",") {
		name, val, _ := strings.Cut(strings.TrimSpace(opt), "=")
		if strings.EqualFold(name, "bf_job_part_count_reserve") {
			if n, err := strconv.Atoi(val); err == nil && n > 0 {
				b.PartCountReserve = n
			}
		}
	}
	return b
}

func schedPartition(p slurmconf.Partition) sched.Partition {
	classes := map[slurmconf.QueueClass]sched.QueueClass{
		slurmconf.ClassUrgent: sched.ClassUrgent, slurmconf.ClassNormal: sched.ClassNormal, slurmconf.ClassBatch: sched.ClassBatch}
	return sched.Partition{
		Name: p.Name, Class: classes[p.QueueClass], Tier: p.PriorityTier, JobFactor: p.PriorityJobFactor,
		// DRAIN refuses new jobs at submission but starts the queued ones.
		Nodes: p.Nodes, Up: p.StartsJobs(), Inactive: p.State == "INACTIVE",
		MaxTime: finiteTime(p.MaxTime), DefaultTime: finiteTime(p.DefaultTime), MaxNodes: finiteNodes(p.MaxNodes),
		AgingRate: p.AgingRate, AgingCap: p.AgingCap,
		ReservationDepth: p.ReservationDepth, ReservationTimeout: p.ReservationTimeout,
		ReservationCooldown: p.ReservationCooldown, Strict: p.ReservationMode == slurmconf.ReserveStrict,
		PreemptMode: preemptMode(p.PreemptMode), GraceTime: p.GraceTime,
		AllowAccounts: p.AllowAccounts, DenyAccounts: p.DenyAccounts,
		MaxMemPerNode:  maxMemPerNode(p),          // memlimits.go
		MaxCPUsPerNode: int(p.CPUsPerNodeLimit()), // slurmconf/partkeys.go
		LLN:            p.LLN,                     // slurmconf/partalternate.go
	}
}

func schedTenant(t slurmconf.Tenant) sched.Tenant {
	guarantee := amountTRES(t.Guarantee)
	lend := amountTRES(t.LendLimit)
	for _, k := range []string{"cpu", "mem", "gres/gpu", "node"} {
		if _, ok := t.LendLimit[k]; !ok {
			setTRES(&lend, k, getTRES(guarantee, k))
		}
	}
	return sched.Tenant{
		Name: t.Name, Weight: t.Weight, Guarantee: guarantee,
		Cap: limitTRES(t.GrpTRES), BorrowLimit: limitTRES(t.BorrowLimit), LendLimit: lend,
		MaxPerUser: limitTRES(t.MaxTRESPerUser), MaxJobsPerUser: finiteCount(t.MaxJobsPerUser),
		MaxSubmitJobsPerUser: finiteCount(t.MaxSubmitJobsPerUser), GrpJobs: finiteCount(t.GrpJobs),
	}
}

// limitTRES maps a TRES limit: absent or UNLIMITED entries are unlimited.
func limitTRES(t slurmconf.TRES) sched.TRES {
	get := func(k string) int64 {
		v, ok := t[k]
		if !ok || v == slurmconf.Unlimited || v < 0 {
			return sched.Unlimited
		}
		return v
	}
	return sched.TRES{CPU: get("cpu"), MemMB: get("mem"), GPU: get("gres/gpu"), Node: get("node")}
}

// amountTRES maps a TRES amount: absent entries are 0.
func amountTRES(t slurmconf.TRES) sched.TRES {
	get := func(k string) int64 {
		v := t[k]
		if v == slurmconf.Unlimited {
			return sched.Unlimited
		}
		return max(v, 0)
	}
	return sched.TRES{CPU: get("cpu"), MemMB: get("mem"), GPU: get("gres/gpu"), Node: get("node")}
}

func getTRES(t sched.TRES, k string) int64 {
	switch k {
	case "cpu":
		return t.CPU
	case "mem":
		return t.MemMB
	case "gres/gpu":
		return t.GPU
	}
	return t.Node
}

func setTRES(t *sched.TRES, k string, v int64) {
	switch k {
	case "cpu":
		t.CPU = v
	case "mem":
		t.MemMB = v
	case "gres/gpu":
		t.GPU = v
	default:
		t.Node = v
	}
}

func finiteCount(v int64) int64 {
	if v == slurmconf.Unlimited || v < 0 {
		return sched.Unlimited
	}
	return v
}

// inheritCount keeps slurmconf.Inherit as sched.Unlimited, which sched
// reads as "the tenant's per-user default".
func inheritCount(v int64) int64 {
	if v == slurmconf.Inherit {
		return sched.Unlimited
	}
	return finiteCount(v)
}

func finiteTime(d time.Duration) time.Duration {
	if d == slurmtime.Unlimited || d < 0 {
		return 0
	}
	return d
}

func finiteNodes(n int64) int {
	if n == slurmconf.Unlimited || n <= 0 || n > 1<<31-1 {
		return 0
	}
	return int(n)
}

func preemptMode(m slurmconf.PreemptMode) sched.PreemptMode {
	switch m {
	case slurmconf.PreemptRequeue:
		return sched.PreemptRequeue
	case slurmconf.PreemptCancel:
		return sched.PreemptCancel
	}
	return sched.PreemptOff
}

// Nodes returns the scheduler's view of the configured nodes, in file
// order: GPUs are the node's gpu GRES count (its type from the first typed
// entry), CPUs and memory what is left after CoreSpecCount/CPUSpecList and
// MemSpecLimit (its CPUs and RealMemory when those are unset). DOWN and
// FUTURE nodes start down, DRAIN nodes drained, everything else up
// (loam-ctld corrects states as node daemons register).
func Nodes(cfg *slurmconf.Config) []sched.Node {
	out := make([]sched.Node, 0, len(cfg.Nodes))
	for _, n := range cfg.Nodes {
		sn := sched.Node{Name: n.Name, CPUs: n.EffectiveCPUs(), MemMB: n.UsableMemory(), Features: n.Features,
			Weight: int(min(max(n.Weight, 0), 1<<31-1)), TmpDiskMB: n.TmpDisk}
		for _, g := range n.GRES {
			if g.Name == "gpu" {
				sn.GPUs += int(g.Count)
				if sn.GPUType == "" {
					sn.GPUType = strings.ToLower(g.Type)
				}
			}
		}
		switch n.State {
		case "DOWN", "FUTURE":
			sn.State = sched.NodeDown
		case "DRAIN":
			sn.State = sched.NodeDrain
		}
		out = append(out, sn)
	}
	return out
}
