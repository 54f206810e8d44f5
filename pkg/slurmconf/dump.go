package slurmconf

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// Dump prints the whole resolved configuration in a stable, line-oriented
// form: files, cluster keys, nodes, partitions, topology, tenants, users
// and warnings. It is meant for people (a config check, golden tests), not
// for parsing back.
func (c *Config) Dump() string {
	var b strings.Builder
	section := func(name string) { fmt.Fprintf(&b, "\n[%s]\n", name) }
	section("files")
	for _, f := range c.Files {
		b.WriteString(f + "\n")
	}
	section("cluster")
	for _, kv := range c.dumpKeys() {
		b.WriteString(kv.Key + "=" + kv.Value + "\n")
	}
	section("nodes")
	dumpNodes(&b, c.Nodes)
	section("partitions")
	for _, p := range c.Partitions {
		dumpPartition(&b, p)
	}
	if c.Topology != nil {
		section("topology")
		for _, s := range c.Topology.Switches {
			fmt.Fprintf(&b, "SwitchName=%s Parent=%s Switches=%s Nodes=%s LinkSpeed=%d\n", s.Name, orNone(s.Parent),
				orNone(strings.Join(s.Switches, ",")), orNone(hostlist.Compress(s.Nodes)), s.LinkSpeed)
		}
	}
	section("tenants")
	for _, t := range c.Tenants {
		dumpTenant(&b, t)
	}
	section("users")
	for _, u := range c.Users {
		fmt.Fprintf(&b, "UserName=%s Accounts=%s DefaultAccount=%s Share=%s GrpTRES=%s MaxJobs=%s MaxSubmitJobs=%s\n",
			u.Name, strings.Join(u.Accounts, ","), u.DefaultAccount, fnum(u.Share), orNone(u.GrpTRES.String()),
			inheritCount(u.MaxJobs), inheritCount(u.MaxSubmitJobs))
	}
	section("warnings")
	for _, w := range c.Warnings {
		b.WriteString(w.String() + "\n")
	}
	return b.String()
}

// dumpNodes prints the nodes, one line per run of consecutive nodes that
// differ only in their names (host names and addresses equal to the node
// name count as the same): a 256-node line of identical nodes prints once.
func dumpNodes(b *strings.Builder, nodes []Node) {
	var group []string
	var groupSig string
	flush := func() {
		if len(group) > 0 {
			b.WriteString(strings.ReplaceAll(groupSig, "\x00", hostlist.Ranged(group)))
		}
	}
	for _, n := range nodes {
		sig := nodeText(n)
		if sig != groupSig {
			flush()
			group, groupSig = nil, sig
		}
		group = append(group, n.Name)
	}
	flush()
}

// nodeText prints n with its name (and a host name or address equal to
// it) as a \x00 placeholder.
func nodeText(n Node) string {
	var b strings.Builder
	nameOr := func(s string) string {
		if s == n.Name {
			return "\x00"
		}
		return s
	}
	fmt.Fprintf(&b, "NodeName=\x00 NodeHostname=%s NodeAddr=%s Port=%d CPUs=%d Boards=%d Sockets=%d CoresPerSocket=%d ThreadsPerCore=%d RealMemory=%d TmpDisk=%d Weight=%d State=%s Features=%s Gres=%s AutoDetect=%s",
		nameOr(n.Hostname), nameOr(n.Addr), n.Port, n.CPUs, n.Boards, n.Sockets, n.CoresPerSocket, n.ThreadsPerCore,
		n.RealMemory, n.TmpDisk, n.Weight, n.State, orNone(strings.Join(n.Features, ",")), orNone(gresString(n.GRES)), n.AutoDetect)
	if n.CoreSpecCount > 0 || n.MemSpecLimit > 0 {
		fmt.Fprintf(&b, " CoreSpecCount=%d CPUSpecList=%s MemSpecLimit=%d", n.CoreSpecCount, orNone(n.SpecCPUList()), n.MemSpecLimit)
	}
	if n.Reason != "" {
		fmt.Fprintf(&b, " Reason=%q", n.Reason)
	}
	if n.CPUBind != "" {
		fmt.Fprintf(&b, " CpuBind=%s", n.CPUBind)
	}
	b.WriteString("\n")
	for _, g := range n.GRES {
		dumpDevices(&b, g)
	}
	return b.String()
}

// dumpDevices prints a GRES's devices, one line per run sharing Cores and
// Links: "  gpu[0-3] File=/dev/nvidia[0-3] Cores=0-55".
func dumpDevices(b *strings.Builder, g GRES) {
	for i := 0; i < len(g.Devices); {
		j := i
		var files []string
		for j < len(g.Devices) && g.Devices[j].Cores == g.Devices[i].Cores && g.Devices[j].Links == g.Devices[i].Links {
			files = append(files, g.Devices[j].File)
			j++
		}
		idx := strconv.Itoa(g.Devices[i].Index)
		if j-i > 1 {
			idx += "-" + strconv.Itoa(g.Devices[j-1].Index)
		}
		fmt.Fprintf(b, "  %s[%s] File=%s", g.Name, idx, hostlist.Ranged(files))
		if g.Devices[i].Cores != "" {
			fmt.Fprintf(b, " Cores=%s", g.Devices[i].Cores)
		}
		if g.Devices[i].Links != "" {
			fmt.Fprintf(b, " Links=%s", g.Devices[i].Links)
		}
		b.WriteString("\n")
		i = j
	}
}

func gresString(list []GRES) string {
	parts := make([]string, len(list))
	for i, g := range list {
		parts[i] = g.Name
		if g.Type != "" {
			parts[i] += ":" + g.Type
		}
		parts[i] += ":" + strconv.FormatInt(g.Count, 10)
	}
	return strings.Join(parts, ",")
}

func dumpPartition(b *strings.Builder, p Partition) {
	fmt.Fprintf(b, "PartitionName=%s Nodes=%s Default=%s State=%s MaxTime=%s DefaultTime=%s MaxNodes=%s MinNodes=%d PriorityTier=%d PriorityJobFactor=%d PreemptMode=%s GraceTime=%d\n",
		p.Name, orNone(hostlist.Compress(p.Nodes)), strings.ToUpper(yesNo(p.Default)), p.State, limitTime(p.MaxTime),
		noneTime(p.DefaultTime), countOrUnlimited(p.MaxNodes), p.MinNodes, p.PriorityTier, p.PriorityJobFactor,
		p.PreemptMode, int64(p.GraceTime/time.Second))
	fmt.Fprintf(b, "  AllowGroups=%s Hidden=%s AllowAccounts=%s DenyAccounts=%s AllowQos=%s DenyQos=%s OverSubscribe=%s DefMemPerCPU=%d DefMemPerGPU=%d MaxMemPerNode=%s\n",
		allOr(p.AllowGroups), strings.ToUpper(yesNo(p.Hidden)), allOr(p.AllowAccounts), orNone(strings.Join(p.DenyAccounts, ",")), allOr(p.AllowQOS), orNone(strings.Join(p.DenyQOS, ",")),
		p.OverSubscribe, p.DefMemPerCPU, p.DefMemPerGPU, memOrUnlimited(p.MaxMemPerNode))
	derived := ""
	if p.QueueClassDerived {
		derived = "(from PriorityTier)"
	}
	fmt.Fprintf(b, "  QueueClass=%s%s AgingRate=%s AgingCap=%s ReservationTimeout=%s ReservationDepth=%d ReservationCooldown=%s ReservationMode=%s CheckpointSignal=%s RequiredMounts=%s\n",
		p.QueueClass, derived, fnum(p.AgingRate), fnum(p.AgingCap), limitTime(p.ReservationTimeout), p.ReservationDepth,
		limitTime(p.ReservationCooldown), p.ReservationMode, p.CheckpointSignal, orNone(strings.Join(p.RequiredMounts, ",")))
}

func dumpTenant(b *strings.Builder, t Tenant) {
	fmt.Fprintf(b, "TenantName=%s Weight=%s Guarantee=%s BorrowLimit=%s LendLimit=%s GrpTRES=%s\n",
		t.Name, fnum(t.Weight), orNone(t.Guarantee.String()), unlimitedIfEmpty(t.BorrowLimit),
		orNone(t.LendLimit.String()), unlimitedIfEmpty(t.GrpTRES))
	fmt.Fprintf(b, "  MaxTRESPerUser=%s MaxJobsPerUser=%s MaxSubmitJobsPerUser=%s GrpJobs=%s GrpSubmitJobs=%s Partitions=%s Description=%q\n",
		unlimitedIfEmpty(t.MaxTRESPerUser), countOrUnlimited(t.MaxJobsPerUser), countOrUnlimited(t.MaxSubmitJobsPerUser),
		countOrUnlimited(t.GrpJobs), countOrUnlimited(t.GrpSubmitJobs), allOr(t.Partitions), t.Description)
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func allOr(list []string) string {
	if list == nil {
		return "ALL"
	}
	return strings.Join(list, ",")
}

func unlimitedIfEmpty(t TRES) string {
	if len(t) == 0 {
		return "UNLIMITED"
	}
	return t.String()
}

func fnum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func countOrUnlimited(n int64) string {
	if n == Unlimited {
		return "UNLIMITED"
	}
	return strconv.FormatInt(n, 10)
}

func inheritCount(n int64) string {
	if n == Inherit {
		return "(tenant)"
	}
	return countOrUnlimited(n)
}

func limitTime(d time.Duration) string { return slurmtime.FormatDuration(d) }

func noneTime(d time.Duration) string {
	if d == 0 {
		return "NONE"
	}
	return slurmtime.FormatDuration(d)
}
