package command

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
)

// sinfoRec is one line of sinfo: nodes of one partition that print alike.
type sinfoRec struct {
	part    *api.Partition
	partIdx int
	nodes   []*api.Node
	state   int
	first   *api.Node // values shared by every node of the line
	// upfront marks the line sinfo makes for each partition before it
	// reads any node (sinfoBuildOrder).
	upfront bool
}

// match flags: which node values must be equal for two nodes to share a
// line, from the fields the format prints (exact adds the numbers).
type sinfoMatch struct {
	partition, state, features, featuresAct, gres, reason, reasonTime, reasonUser bool
	hostnames, addr, cpus, memory, disk, weight, sct, load, freeMem, version      bool
	allocMem, gresUsed, port, comment, extra                                      bool

	// Partition values: lines of different partitions merge when every
	// partition value the format prints is equal, as _match_part_data.
	avail, jobSize, defTime, maxTime, oversub, preempt, prioTier, prioJob bool
}

// sinfoCol is one sinfo column.
type sinfoCol struct {
	letter   byte
	names    []string
	header   string
	hdrNoCut bool
	// nodeWide columns take the widest node list's width under -N.
	nodeWide bool
	match    func(m *sinfoMatch)
	val      func(r *sinfoRec, p *sinfoPrinter) string
}

func minMax(r *sinfoRec, get func(n *api.Node) int64) (int64, int64) {
	lo, hi := get(r.nodes[0]), get(r.nodes[0])
	for _, n := range r.nodes[1:] {
		lo, hi = min(lo, get(n)), max(hi, get(n))
	}
	return lo, hi
}

// rangeString is Slurm's _build_min_max_32_string: "32", "32+" or, with
// span, "32-64".
func rangeString(lo, hi int64, span bool) string {
	switch {
	case lo == hi:
		return strconv.FormatInt(hi, 10)
	case span:
		return strconv.FormatInt(lo, 10) + "-" + strconv.FormatInt(hi, 10)
	}
	return strconv.FormatInt(lo, 10) + "+"
}

func nodeNum(get func(n *api.Node) int64, span bool) func(r *sinfoRec, p *sinfoPrinter) string {
	return func(r *sinfoRec, _ *sinfoPrinter) string {
		if len(r.nodes) == 0 {
			return "0"
		}
		lo, hi := minMax(r, get)
		return rangeString(lo, hi, span)
	}
}

func partVal(f func(p *api.Partition) string) func(r *sinfoRec, p *sinfoPrinter) string {
	return func(r *sinfoRec, _ *sinfoPrinter) string {
		if r.part == nil {
			return "n/a"
		}
		return f(r.part)
	}
}

func firstVal(f func(n *api.Node) string) func(r *sinfoRec, p *sinfoPrinter) string {
	return func(r *sinfoRec, _ *sinfoPrinter) string {
		if r.first == nil {
			return "(null)"
		}
		return f(r.first)
	}
}

// counts returns allocated, idle, other and total nodes (or CPUs), as
// sinfo counts them: a node running jobs is allocated even when draining;
// a drained or down node is other; CPUs a job holds are allocated, the
// rest idle or, on drained and down nodes, other.
func counts(r *sinfoRec, cpus bool) (a, i, o, t int) {
	for _, n := range r.nodes {
		s := nodeStateNum(n)
		base := s & 0xf
		busy := base == stAllocated || base == stMixed || s&flagComp != 0
		out := s&flagDrain != 0 || base == stDown
		if cpus {
			t += n.CPUs
			a += n.AllocCPUs
			if out {
				o += n.CPUs - n.AllocCPUs
			} else {
				i += n.CPUs - n.AllocCPUs
			}
			continue
		}
		t++
		switch {
		case busy:
			a++
		case out:
			o++
		default:
			i++
		}
	}
	return
}

func slash(v ...int) string {
	s := make([]string, len(v))
	for k, x := range v {
		s[k] = strconv.Itoa(x)
	}
	return strings.Join(s, "/")
}

func stateVal(long bool) func(r *sinfoRec, p *sinfoPrinter) string {
	return func(r *sinfoRec, _ *sinfoPrinter) string {
		if len(r.nodes) == 0 {
			return "n/a"
		}
		if long {
			return strings.ToLower(stateLong(r.state))
		}
		return strings.ToLower(stateCompact(r.state))
	}
}

func timeVal(secs int64) string {
	if secs == api.UnlimitedSeconds || secs <= 0 {
		return "infinite"
	}
	return string(appendSecs(nil, secs))
}

func orNone(s string) string { return orDefault(s, "none") }

// sinfoCols is sinfo's column table.
var sinfoCols = append([]sinfoCol{
	{letter: 'a', names: []string{"available"}, header: "AVAIL",
		match: func(m *sinfoMatch) { m.avail = true },
		val:   partVal(partAvail)},
	{letter: 'A', names: []string{"nodeai"}, header: "NODES(A/I)",
		val: func(r *sinfoRec, _ *sinfoPrinter) string { a, i, _, _ := counts(r, false); return slash(a, i) }},
	{letter: 'b', names: []string{"features_act"}, header: "ACTIVE_FEATURES",
		match: func(m *sinfoMatch) { m.featuresAct = true },
		val: firstVal(func(n *api.Node) string {
			f := n.ActiveFeatures
			if f == nil {
				f = n.Features
			}
			return orNull(strings.Join(f, ","))
		})},
	{letter: 'B', names: []string{"maxcpuspernode"}, header: "MAX_CPUS_PER_NODE",
		val: func(*sinfoRec, *sinfoPrinter) string { return "UNLIMITED" }},
	{letter: 'c', names: []string{"cpus"}, header: "CPUS", match: func(m *sinfoMatch) { m.cpus = true },
		val: cpusCol},
	{letter: 'C', names: []string{"cpusstate"}, header: "CPUS(A/I/O/T)", match: func(m *sinfoMatch) { m.cpus = true },
		val: func(r *sinfoRec, _ *sinfoPrinter) string { a, i, o, t := counts(r, true); return slash(a, i, o, t) }},
	{letter: 'd', names: []string{"disk"}, header: "TMP_DISK", match: func(m *sinfoMatch) { m.disk = true },
		val: nodeNum(func(n *api.Node) int64 { return n.TmpDisk }, false)},
	{letter: 'D', names: []string{"nodes"}, header: "NODES",
		val: func(r *sinfoRec, _ *sinfoPrinter) string { return strconv.Itoa(len(r.nodes)) }},
	{letter: 'e', names: []string{"freemem"}, header: "FREE_MEM", match: func(m *sinfoMatch) { m.freeMem = true },
		val: nodeNum(func(n *api.Node) int64 { return n.FreeMemory }, true)},
	{letter: 'E', names: []string{"reason"}, header: "REASON", match: func(m *sinfoMatch) { m.reason = true },
		val: func(r *sinfoRec, _ *sinfoPrinter) string {
			if r.first == nil { // a line without nodes has no reason
				return "none"
			}
			return orNone(r.first.Reason)
		}},
	{letter: 'f', names: []string{"features"}, header: "AVAIL_FEATURES", match: func(m *sinfoMatch) { m.features = true },
		val: firstVal(func(n *api.Node) string { return orNull(strings.Join(n.Features, ",")) })},
	{letter: 'F', names: []string{"nodeaiot"}, header: "NODES(A/I/O/T)",
		val: func(r *sinfoRec, _ *sinfoPrinter) string { a, i, o, t := counts(r, false); return slash(a, i, o, t) }},
	{letter: 'g', names: []string{"groups"}, header: "GROUPS", val: partVal(func(*api.Partition) string { return "all" })},
	{letter: 'G', names: []string{"gres"}, header: "GRES", match: func(m *sinfoMatch) { m.gres = true },
		val: firstVal(func(n *api.Node) string { return orNull(n.GRES) })},
	{letter: 'h', names: []string{"oversubscribe", "share"}, header: "OVERSUBSCRIBE",
		match: func(m *sinfoMatch) { m.oversub = true },
		val:   partVal(func(p *api.Partition) string { return orDefault(p.OverSubscribe, "NO") })},
	{letter: 'H', names: []string{"timestamp"}, header: "TIMESTAMP", match: func(m *sinfoMatch) { m.reasonTime = true },
		val: func(r *sinfoRec, p *sinfoPrinter) string {
			if r.first == nil {
				return "Unknown"
			}
			return string(p.tf.appendTime(nil, r.first.ReasonTime, "Unknown"))
		}},
	{letter: 'I', names: []string{"priorityjobfactor"}, header: "PRIO_JOB_FACTOR",
		match: func(m *sinfoMatch) { m.prioJob = true },
		val:   partVal(func(p *api.Partition) string { return strconv.Itoa(p.PriorityJobFactor) })},
	{letter: 'l', names: []string{"time"}, header: "TIMELIMIT", match: func(m *sinfoMatch) { m.maxTime = true },
		val: partVal(func(p *api.Partition) string { return timeVal(p.MaxTime) })},
	{letter: 'L', names: []string{"defaulttime"}, header: "DEFAULTTIME", match: func(m *sinfoMatch) { m.defTime = true },
		val: partVal(func(p *api.Partition) string {
			if p.DefaultTime == 0 {
				return "n/a"
			}
			return timeVal(p.DefaultTime)
		})},
	{letter: 'm', names: []string{"memory"}, header: "MEMORY", match: func(m *sinfoMatch) { m.memory = true },
		val: nodeNum(func(n *api.Node) int64 { return n.RealMemory }, false)},
	{letter: 'M', names: []string{"preemptmode"}, header: "PREEMPT_MODE",
		match: func(m *sinfoMatch) { m.preempt = true },
		val:   partVal(func(p *api.Partition) string { return orDefault(p.PreemptMode, "OFF") })},
	{letter: 'n', names: []string{"hostnames"}, header: "HOSTNAMES", hdrNoCut: true, nodeWide: true, match: func(m *sinfoMatch) { m.hostnames = true },
		val: func(r *sinfoRec, _ *sinfoPrinter) string {
			return hostField(r, func(n *api.Node) string { return n.Hostname })
		}},
	{letter: 'N', names: []string{"nodelist"}, header: "NODELIST", hdrNoCut: true, nodeWide: true,
		val: func(r *sinfoRec, _ *sinfoPrinter) string {
			return hostField(r, func(n *api.Node) string { return n.Name })
		}},
	{letter: 'o', names: []string{"nodeaddr"}, header: "NODE_ADDR", hdrNoCut: true, match: func(m *sinfoMatch) { m.addr = true },
		val: func(r *sinfoRec, _ *sinfoPrinter) string {
			return hostField(r, func(n *api.Node) string { return n.Address })
		}},
	{letter: 'O', names: []string{"cpusload"}, header: "CPU_LOAD", match: func(m *sinfoMatch) { m.load = true },
		val: func(r *sinfoRec, _ *sinfoPrinter) string {
			if len(r.nodes) == 0 {
				return "N/A"
			}
			lo, hi := r.nodes[0].CPULoad, r.nodes[0].CPULoad
			for _, n := range r.nodes {
				lo, hi = min(lo, n.CPULoad), max(hi, n.CPULoad)
			}
			if lo == hi {
				return strconv.FormatFloat(lo, 'f', 2, 64)
			}
			return strconv.FormatFloat(lo, 'f', 2, 64) + "-" + strconv.FormatFloat(hi, 'f', 2, 64)
		}},
	{letter: 'p', names: []string{"prioritytier"}, header: "PRIO_TIER",
		match: func(m *sinfoMatch) { m.prioTier = true },
		val:   partVal(func(p *api.Partition) string { return strconv.Itoa(p.PriorityTier) })},
	{letter: 'P', names: []string{"partition"}, header: "PARTITION", match: func(m *sinfoMatch) { m.partition = true },
		val: func(r *sinfoRec, p *sinfoPrinter) string { return p.partitionName(r) }},
	{letter: 'r', names: []string{"root"}, header: "ROOT", val: partVal(func(*api.Partition) string { return "no" })},
	{letter: 'R', names: []string{"partitionname"}, header: "PARTITION", match: func(m *sinfoMatch) { m.partition = true },
		val: partVal(func(p *api.Partition) string { return p.Name })},
	{letter: 's', names: []string{"size"}, header: "JOB_SIZE", match: func(m *sinfoMatch) { m.jobSize = true },
		val: jobSizeCol},
	{letter: 'S', names: []string{"allocnodes"}, header: "ALLOCNODES", val: partVal(func(*api.Partition) string { return "all" })},
	{letter: 't', names: []string{"statecompact"}, header: "STATE", match: func(m *sinfoMatch) { m.state = true },
		val: stateVal(false)},
	{letter: 'T', names: []string{"statelong"}, header: "STATE", match: func(m *sinfoMatch) { m.state = true },
		val: stateVal(true)},
	{letter: 'u', names: []string{"user"}, header: "USER", match: func(m *sinfoMatch) { m.reasonUser = true },
		val: func(r *sinfoRec, _ *sinfoPrinter) string {
			if r.first == nil { // Slurm's empty line holds reason uid 0
				return "root"
			}
			return reasonUser(r.first)
		}},
	{letter: 'U', names: []string{"userlong"}, header: "USER", match: func(m *sinfoMatch) { m.reasonUser = true },
		val: func(r *sinfoRec, p *sinfoPrinter) string {
			if r.first == nil {
				return "root(0)"
			}
			u := reasonUser(r.first)
			if uid, ok := p.users.UID(u); ok {
				return u + "(" + strconv.FormatUint(uint64(uid), 10) + ")"
			}
			return u
		}},
	{letter: 'v', names: []string{"version"}, header: "VERSION", match: func(m *sinfoMatch) { m.version = true },
		val: firstVal(func(n *api.Node) string { return orNA(n.Version) })},
	{letter: 'V', names: []string{"cluster"}, header: "CLUSTER",
		val: func(*sinfoRec, *sinfoPrinter) string { return "N/A" }}, // Slurm names a cluster only with -M
	{letter: 'w', names: []string{"weight"}, header: "WEIGHT", match: func(m *sinfoMatch) { m.weight = true },
		val: nodeNum(func(n *api.Node) int64 { return n.Weight }, false)},
	{letter: 'X', names: []string{"sockets"}, header: "SOCKETS", match: func(m *sinfoMatch) { m.sct = true },
		val: nodeNum(func(n *api.Node) int64 { return int64(n.Sockets) }, false)},
	{letter: 'Y', names: []string{"cores"}, header: "CORES", match: func(m *sinfoMatch) { m.sct = true },
		val: nodeNum(func(n *api.Node) int64 { return int64(n.CoresPerSocket) }, false)},
	{letter: 'Z', names: []string{"threads"}, header: "THREADS", match: func(m *sinfoMatch) { m.sct = true },
		val: nodeNum(func(n *api.Node) int64 { return int64(n.ThreadsPerCore) }, false)},
	{letter: 'z', names: []string{"socketcorethread"}, header: "S:C:T", match: func(m *sinfoMatch) { m.sct = true },
		val: func(r *sinfoRec, p *sinfoPrinter) string {
			if len(r.nodes) == 0 {
				return "0:0:0"
			}
			get := func(f func(n *api.Node) int64) string { lo, hi := minMax(r, f); return rangeString(lo, hi, false) }
			return get(func(n *api.Node) int64 { return int64(n.Sockets) }) + ":" +
				get(func(n *api.Node) int64 { return int64(n.CoresPerSocket) }) + ":" +
				get(func(n *api.Node) int64 { return int64(n.ThreadsPerCore) })
		}},
}, sinfoLongOnlyCols...)

func reasonUser(n *api.Node) string {
	if n.ReasonTime == 0 && n.Reason == "" {
		return "Unknown"
	}
	return orDefault(n.ReasonUser, "root")
}

// jobSize prints a partition's node count range ("1-infinite").
func jobSize(p *api.Partition) string {
	lo := max(p.MinNodes, 1)
	if p.MaxNodes <= 0 || p.MaxNodes >= 1<<31 {
		return strconv.FormatInt(lo, 10) + "-infinite"
	}
	if lo == p.MaxNodes {
		return strconv.FormatInt(lo, 10)
	}
	return strconv.FormatInt(lo, 10) + "-" + strconv.FormatInt(p.MaxNodes, 10)
}

// hostField prints the line's hosts, compressed and sorted.
func hostField(r *sinfoRec, f func(n *api.Node) string) string {
	names := make([]string, 0, len(r.nodes))
	for _, n := range r.nodes {
		if v := f(n); v != "" {
			names = append(names, v)
		}
	}
	return hostlist.Compress(names)
}

type sinfoColumns struct{}

func (sinfoColumns) letter(c byte) (int, bool) {
	for i := range sinfoCols {
		if sinfoCols[i].letter == c && c != 0 {
			return i, true
		}
	}
	return 0, false
}

func (sinfoColumns) long(name string) (int, bool) {
	for i := range sinfoCols {
		for _, n := range sinfoCols[i].names {
			if n == name {
				return i, true
			}
		}
	}
	return 0, false
}
