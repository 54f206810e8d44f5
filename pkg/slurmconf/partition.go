package slurmconf

import (
	"math"
	"path"
	"slices"
	"strings"
)

var partitionSchema = newSchema("PartitionName", func() []keySpec {
	return join(
		keys(honoured, "PartitionName", "Nodes", "Default", "MaxTime",
			"DefaultTime", "MaxNodes", "MinNodes", "PriorityTier",
			"PriorityJobFactor", "Priority", "PreemptMode", "GraceTime",
			"AllowAccounts", "DenyAccounts", "AllowQos", "DenyQos", "State",
			"OverSubscribe", "DefMemPerCPU", "DefMemPerGPU", "MaxMemPerNode",
			"Hidden", "AllowGroups", "OverTimeLimit", "DisableRootJobs",
			"DefMemPerNode", "MaxMemPerCPU"), // memlimits.go
		keys(honoured, "DefCPUPerGPU", "MaxCPUsPerNode", "ExclusiveUser", "RootOnly"), // partkeys.go
		keys(honoured, "ReqResv", "AllocNodes"),                                       // partreq.go
		keys(honoured, "CpuBind"),                                                     // cpubind.go
		keys(honoured, "Alternate", "LLN"),                                            // partalternate.go
		keys(honoured, queueKeys...),
		[]keySpec{{name: "Shared", alias: "OverSubscribe"}},
		keys(ignored,
			"ExclusiveTopo", "MaxCPUsPerSocket",
			"PowerDownOnIdle", "QOS",
			"ResumeTimeout", "SelectTypeParameters", "SuspendTime",
			"SuspendTimeout", "Topology"),
		keys(honoured, "TRESBillingWeights"), // billing.go
	)
})

// queueKeys are Loam's own partition keys.
var queueKeys = []string{"QueueClass", "AgingRate", "AgingCap",
	"ReservationTimeout", "ReservationDepth", "ReservationCooldown",
	"ReservationMode", "CheckpointSignal", "RequiredMounts"}

// pendingPartition is a PartitionName line read but not yet built: it is
// built once all nodes and cluster keys are known.
type pendingPartition struct {
	name string
	x    *dec
}

// partitionLine handles one PartitionName line.
func partitionLine(rec record, pending *[]pendingPartition, defs *lineDefaults, d *diag) {
	name := rec.Fields[0].Value
	recName := "PartitionName=" + name
	v := partitionSchema.check(rec.Fields, recName, d)
	delete(v, "PartitionName")
	if strings.EqualFold(name, "DEFAULT") {
		defs.add(v, "PartitionName=DEFAULT")
		return
	}
	*pending = append(*pending, pendingPartition{name: name,
		x: &dec{d: d, rec: recName, pos: rec.Pos, v: defs.apply(v)}})
}

// buildPartitions builds the pending partitions against c's nodes and
// cluster keys, then gives each its queue class and Loam queue values.
func buildPartitions(pending []pendingPartition, c *Config) {
	written := make([]bool, len(pending))
	for i, pp := range pending {
		p := buildPartition(pp.x, pp.name, c)
		if _, ok := pp.x.get("QueueClass"); ok {
			written[i] = true
			pp.x.enum("QueueClass", (*string)(&p.QueueClass), string(ClassUrgent), string(ClassNormal), string(ClassBatch))
			if p.QueueClass == "" {
				written[i] = false
			}
		}
		c.Partitions = append(c.Partitions, p)
	}
	classes := deriveClasses(c.Partitions, written)
	for i, pp := range pending {
		p := &c.Partitions[i]
		p.Queue = QueueDefaults(classes[i])
		p.QueueClassDerived = !written[i]
		decodeQueue(pp.x, &p.Queue)
	}
}

func buildPartition(x *dec, name string, c *Config) Partition {
	p := defaultPartition(c)
	p.Name, p.Pos = name, x.pos
	x.str("Nodes", &p.NodesSpec)
	p.Nodes = x.partitionNodes(p.NodesSpec, c)
	x.boolean("Default", &p.Default)
	x.enum("State", &p.State, "UP", "DOWN", "DRAIN", "INACTIVE")
	x.maxTime("MaxTime", &p.MaxTime)
	x.timeLimit("DefaultTime", &p.DefaultTime)
	x.limit("MaxNodes", &p.MaxNodes, math.MaxUint32)
	x.count("MinNodes", &p.MinNodes, math.MaxUint32)
	x.tiers(&p)
	x.preemptMode("PreemptMode", &p.PreemptMode)
	x.seconds("GraceTime", &p.GraceTime)
	p.AllowAccounts, p.DenyAccounts = x.allowDeny("AllowAccounts", "DenyAccounts")
	p.AllowQOS, p.DenyQOS = x.allowDeny("AllowQos", "DenyQos")
	x.boolean("Hidden", &p.Hidden)
	p.AllowGroups = x.groups("AllowGroups")
	x.overSubscribe(&p.OverSubscribe)
	x.memory("DefMemPerCPU", &p.DefMemPerCPU)
	x.memory("DefMemPerGPU", &p.DefMemPerGPU)
	x.memory("MaxMemPerNode", &p.MaxMemPerNode)
	decodePartLimits(x, &p, c)       // limits.go
	decodePartMemLimits(x, &p)       // memlimits.go
	decodePartKeys(x, &p)            // partkeys.go
	x.billingWeights(&p.Billing)     // billing.go
	x.cpuBind(&p.CPUBind)            // cpubind.go
	decodePartRoute(x, &p.PartRoute) // partalternate.go
	for _, k := range []string{"DefMemPerCPU", "DefMemPerGPU", "MaxMemPerNode", "DefMemPerNode", "MaxMemPerCPU"} {
		if _, set := x.get(k); !set {
			p.InheritedMemory = append(p.InheritedMemory, k)
		}
	}
	return p
}

// partitionNodes resolves Nodes=: ALL is every node; otherwise a host list
// (white space allowed as a separator, as Slurm turns it into commas). The
// result is in node-table order, duplicates dropped; names that are not
// nodes follow, in written order, for Validate to report.
func (x *dec) partitionNodes(spec string, c *Config) []string {
	if spec == "" {
		return nil
	}
	if strings.EqualFold(spec, "ALL") {
		out := make([]string, len(c.Nodes))
		for i, n := range c.Nodes {
			out[i] = n.Name
		}
		return out
	}
	f, _ := x.get("Nodes")
	names, err := expandBounded(x.d, strings.Join(strings.Fields(spec), ","), MaxNodes)
	if err != nil {
		x.bad(f, "%v", err)
		return nil
	}
	var found []int
	var unknown []string
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		if i, ok := c.nodeIndex[n]; ok {
			found = append(found, i)
		} else {
			unknown = append(unknown, n)
		}
	}
	slices.Sort(found)
	out := make([]string, 0, len(names))
	for _, i := range found {
		out = append(out, c.Nodes[i].Name)
	}
	out = append(out, unknown...)
	return out
}

// tiers decodes PriorityTier and PriorityJobFactor, and the deprecated
// Priority key that sets both.
func (x *dec) tiers(p *Partition) {
	if f, ok := x.get("Priority"); ok {
		x.d.warnf(f.Pos, x.rec, f.Key, "deprecated, use PriorityTier and PriorityJobFactor")
		x.int("Priority", &p.PriorityTier, math.MaxUint16-2)
		x.int("Priority", &p.PriorityJobFactor, math.MaxUint16-2)
	}
	x.int("PriorityTier", &p.PriorityTier, math.MaxUint16-2)
	x.int("PriorityJobFactor", &p.PriorityJobFactor, math.MaxUint16-2)
}

// allowDeny decodes an Allow/Deny pair of lower-cased name lists. ALL in
// the allow list means no restriction; with both set the deny list is
// ignored, as in Slurm.
func (x *dec) allowDeny(allowKey, denyKey string) (allow, deny []string) {
	x.list(allowKey, &allow)
	x.list(denyKey, &deny)
	allow, deny = lowerAll(allow), lowerAll(deny)
	if len(allow) == 1 && allow[0] == "all" {
		allow = nil
	}
	if len(allow) == 0 {
		allow = nil
	}
	if len(deny) == 0 {
		deny = nil
	}
	if allow != nil && deny != nil {
		f, _ := x.get(denyKey)
		x.d.warnf(f.Pos, x.rec, f.Key, "both %s and %s are set: %s is ignored, as in Slurm", allowKey, denyKey, denyKey)
		deny = nil
	}
	return allow, deny
}

// groups decodes AllowGroups: group names as written (they are case
// sensitive), nil for ALL or an empty list.
func (x *dec) groups(name string) []string {
	var list []string
	x.list(name, &list)
	if len(list) == 0 || slices.ContainsFunc(list, func(g string) bool { return strings.EqualFold(g, "ALL") }) {
		return nil
	}
	return list
}

// overSubscribe decodes OverSubscribe (NO, EXCLUSIVE, YES[:N], FORCE[:N]).
// Loam never shares a CPU or GPU between jobs, so YES and FORCE warn.
func (x *dec) overSubscribe(dst *string) {
	f, ok := x.get("OverSubscribe")
	if !ok {
		return
	}
	mode, _, _ := strings.Cut(strings.ToUpper(f.Value), ":")
	switch mode {
	case "NO", "EXCLUSIVE":
	case "YES", "FORCE":
		x.d.warnf(f.Pos, x.rec, f.Key, "%s: Loam does not oversubscribe resources, read as NO", f.Value)
		mode = "NO"
	default:
		x.bad(f, "%q is not NO, EXCLUSIVE, YES or FORCE", f.Value)
		return
	}
	*dst = mode
}

// decodeQueue decodes Loam's queue keys over the class defaults in q.
func decodeQueue(x *dec, q *Queue) {
	x.number("AgingRate", &q.AgingRate)
	x.number("AgingCap", &q.AgingCap)
	x.timeLimit("ReservationTimeout", &q.ReservationTimeout)
	x.timeLimit("ReservationCooldown", &q.ReservationCooldown)
	x.int("ReservationDepth", &q.ReservationDepth, 1024)
	x.enum("ReservationMode", (*string)(&q.ReservationMode), string(ReserveBackfill), string(ReserveStrict))
	x.signal("CheckpointSignal", &q.CheckpointSignal)
	x.mounts("RequiredMounts", &q.RequiredMounts)
}

// mounts decodes a list of absolute mount points.
func (x *dec) mounts(name string, dst *[]string) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	var out []string
	for _, m := range splitList(f.Value) {
		if !strings.HasPrefix(m, "/") {
			x.bad(f, "%q is not an absolute path", m)
			return
		}
		out = append(out, path.Clean(m))
	}
	*dst = out
}

// TakesJobs reports whether the partition accepts new submissions, as
// Slurm's State does: UP and DOWN do, DRAIN and INACTIVE refuse them.
func (p *Partition) TakesJobs() bool { return p.State != "DRAIN" && p.State != "INACTIVE" }

// StartsJobs reports whether the partition's queued jobs may start: UP
// and DRAIN; DOWN and INACTIVE keep them pending.
func (p *Partition) StartsJobs() bool { return p.State == "UP" || p.State == "DRAIN" }
