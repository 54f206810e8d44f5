package command

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
)

// sinfoCmp compares two lines as one of sort.c's functions, before -S's
// "-" turns the sign: like Slurm's, some are not consistent orders.
type sinfoCmp func(a, b *sinfoRec) int

// sortRecs orders lines as sinfo 22.05 does. It starts from the order
// sinfo builds lines in (sinfoBuildOrder), then runs one list_sort per -S
// key, from the last key to the first. A given -S replaces the default
// ("#P,-t", with -N "N"); an empty one sorts nothing; letters sinfo
// does not know are skipped. list_sort is glibc's qsort, a merge sort:
// stable, and exactly replayed (hostlist.GlibcMsort) because the node list, host
// name and address comparisons are not consistent orders.
func (p *sinfoParams) sortRecs(recs []*sinfoRec, m sinfoMatch, users Users) {
	sinfoBuildOrder(recs)
	spec := p.sort
	if !p.sortSet {
		spec = "#P,-t"
		if p.nodeFlag {
			spec = "N"
		}
	}
	tmp := make([]*sinfoRec, len(recs))
	for i := len(spec) - 1; i >= 0; i-- {
		c := spec[i]
		if c == ',' || c == '#' || c == '+' || c == '-' {
			continue
		}
		f := sinfoSortKey(c, i > 0 && spec[i-1] == '#', m, users)
		if f == nil {
			continue
		}
		if i > 0 && spec[i-1] == '-' {
			f = reversed(f)
		}
		hostlist.GlibcMsort(recs, tmp, f)
	}
}

// sinfoBuildOrder puts lines in the order sinfo's list holds them before
// sorting: first the line it makes for each partition (in partition
// order) before reading nodes, then the lines nodes start. With a
// partition column each partition's nodes are read in a thread of its
// own, so the order of the latter lines across partitions races; Loam
// takes the threads one after the other, partition by partition (the
// order records builds), which the peer shows most often.
func sinfoBuildOrder(recs []*sinfoRec) {
	slices.SortStableFunc(recs, func(a, b *sinfoRec) int {
		switch {
		case a.upfront == b.upfront:
			return 0
		case a.upfront:
			return -1
		}
		return 1
	})
}

func reversed(f sinfoCmp) sinfoCmp {
	return func(a, b *sinfoRec) int { return -f(a, b) }
}

// sinfoSortKey is sort.c's comparison for the -S letter c (nil for a
// letter sinfo skips). A line's node values are its smallest (sinfo's
// min_*), its shared values those of its first node; a line without
// nodes holds zeros and empty strings, as sinfo's zeroed record.
func sinfoSortKey(c byte, partOrder bool, m sinfoMatch, users Users) sinfoCmp {
	if f := sinfoNodeKey(c); f != nil {
		return func(a, b *sinfoRec) int { return cmp.Compare(lowest(a, f), lowest(b, f)) }
	}
	if f := sinfoPartKey(c); f != nil {
		return func(a, b *sinfoRec) int { return cmp.Compare(partKey(a, f), partKey(b, f)) }
	}
	switch c {
	case 'P', 'R':
		if partOrder {
			return func(a, b *sinfoRec) int { return cmp.Compare(a.partIdx, b.partIdx) }
		}
		return func(a, b *sinfoRec) int { return strings.Compare(partName(a), partName(b)) }
	case 't', 'T':
		return func(a, b *sinfoRec) int { return cmp.Compare(stateKey(a), stateKey(b)) }
	case 'N':
		return byFirstHost(func(n *api.Node) string { return n.Name }, true, true)
	case 'n':
		return byFirstHost(func(n *api.Node) string { return n.Hostname }, m.hostnames, false)
	case 'o':
		return byFirstHost(func(n *api.Node) string { return n.Address }, m.addr, false)
	case 'D':
		return func(a, b *sinfoRec) int { return cmp.Compare(len(a.nodes), len(b.nodes)) }
	case 'A', 'F':
		return func(a, b *sinfoRec) int {
			x, _, _, _ := counts(a, false)
			y, _, _, _ := counts(b, false)
			return cmp.Compare(x, y)
		}
	case 'E':
		return byShared(func(n *api.Node) string { return n.Reason })
	case 'f':
		return byShared(func(n *api.Node) string { return strings.Join(n.Features, ",") })
	case 'b':
		return byShared(func(n *api.Node) string {
			if n.ActiveFeatures == nil {
				return strings.Join(n.Features, ",")
			}
			return strings.Join(n.ActiveFeatures, ",")
		})
	case 'H':
		return func(a, b *sinfoRec) int { return cmp.Compare(reasonTime(a), reasonTime(b)) }
	case 'u', 'U':
		return func(a, b *sinfoRec) int { return cmp.Compare(reasonUID(a, users), reasonUID(b, users)) }
	case 'g':
		return func(a, b *sinfoRec) int { return strings.Compare(allowGroups(a), allowGroups(b)) }
	case 'V':
		// Lines carry a cluster name only across clusters (-M), which
		// Loam does not serve: all are equal.
		return func(a, b *sinfoRec) int { return 0 }
	case 'z':
		return func(a, b *sinfoRec) int {
			for _, c := range "XYZ" {
				f := sinfoNodeKey(byte(c))
				if d := cmp.Compare(lowest(a, f), lowest(b, f)); d != 0 {
					return d
				}
			}
			return 0
		}
	}
	return nil
}

// sinfoNodeKey is the node number a -S letter sorts lines by.
func sinfoNodeKey(c byte) func(n *api.Node) int64 {
	switch c {
	case 'c':
		return func(n *api.Node) int64 { return int64(n.CPUs) }
	case 'd':
		return func(n *api.Node) int64 { return n.TmpDisk }
	case 'e':
		return func(n *api.Node) int64 { return n.FreeMemory }
	case 'm':
		return func(n *api.Node) int64 { return n.RealMemory }
	case 'w':
		return func(n *api.Node) int64 { return n.Weight }
	case 'O':
		// Slurm holds the load as hundredths.
		return func(n *api.Node) int64 { return int64(math.Round(n.CPULoad * 100)) }
	case 'X':
		return func(n *api.Node) int64 { return int64(n.Sockets) }
	case 'Y':
		return func(n *api.Node) int64 { return int64(n.CoresPerSocket) }
	case 'Z':
		return func(n *api.Node) int64 { return int64(n.ThreadsPerCore) }
	}
	return nil
}

// sinfoPartKey is the partition number a -S letter sorts lines by, as
// Slurm stores it: UNLIMITED is its INFINITE, the largest.
func sinfoPartKey(c byte) func(p *api.Partition) int64 {
	switch c {
	case 'a':
		return partStateUp
	case 'h':
		return maxShare
	case 'l':
		return func(p *api.Partition) int64 { return unlimitedLast(p.MaxTime) }
	case 'M':
		return preemptModeNum
	case 'p':
		return func(p *api.Partition) int64 { return int64(p.PriorityTier) }
	case 'r':
		return func(p *api.Partition) int64 {
			if p.RootOnly {
				return 1
			}
			return 0
		}
	case 's':
		return func(p *api.Partition) int64 {
			if p.MaxNodes <= 0 || p.MaxNodes >= 1<<31 {
				return 1 << 32
			}
			return p.MaxNodes + p.MinNodes
		}
	case 'S':
		return func(p *api.Partition) int64 { return int64(p.PriorityJobFactor) }
	}
	return nil
}

func unlimitedLast(secs int64) int64 {
	if secs == api.UnlimitedSeconds || secs < 0 {
		return 1 << 40
	}
	return secs
}

// partStateUp is a partition's state_up: bits for taking jobs (1) and
// scheduling them (2).
func partStateUp(p *api.Partition) int64 {
	switch strings.ToUpper(orDefault(p.State, "UP")) {
	case "UP":
		return 3
	case "DOWN":
		return 1
	case "DRAIN":
		return 2
	}
	return 0 // INACTIVE
}

// maxShare is a partition's max_share: EXCLUSIVE 0, NO 1, YES:n n, and
// FORCE:n n with Slurm's SHARED_FORCE bit (0x8000).
func maxShare(p *api.Partition) int64 {
	v := strings.ToUpper(orDefault(p.OverSubscribe, "NO"))
	kind, count, _ := strings.Cut(v, ":")
	n, err := strconv.ParseInt(count, 10, 64)
	if err != nil {
		n = 4 // Slurm's count when none is given
	}
	switch kind {
	case "EXCLUSIVE":
		return 0
	case "YES":
		return n
	case "FORCE":
		return 0x8000 | n
	}
	return 1
}

// preemptModeNum is a partition's preempt_mode, Slurm's bits for the
// modes it names ("SUSPEND,GANG").
func preemptModeNum(p *api.Partition) int64 {
	bits := map[string]int64{"SUSPEND": 0x1, "REQUEUE": 0x2, "CANCEL": 0x8, "WITHIN": 0x4000, "GANG": 0x8000}
	var v int64
	for _, m := range strings.Split(strings.ToUpper(orDefault(p.PreemptMode, "OFF")), ",") {
		v |= bits[m]
	}
	return v
}

// lowest is a line's smallest value of f (0 for a line without nodes).
func lowest(r *sinfoRec, f func(n *api.Node) int64) int64 {
	if len(r.nodes) == 0 {
		return 0
	}
	lo, _ := minMax(r, f)
	return lo
}

func partKey(r *sinfoRec, f func(p *api.Partition) int64) int64 {
	if r.part == nil {
		return 0
	}
	return f(r.part)
}

// stateKey is the line's node state number (0 without nodes).
func stateKey(r *sinfoRec) int {
	if len(r.nodes) == 0 {
		return 0
	}
	return r.state
}

func reasonTime(r *sinfoRec) int64 {
	if r.first == nil {
		return 0
	}
	return r.first.ReasonTime
}

// reasonUID is the uid of who set the line's reason, as a number: root's
// 0 first, a node without a reason holding Slurm's NO_VAL (0xfffffffe),
// last, and a line without nodes 0.
func reasonUID(r *sinfoRec, users Users) int64 {
	const noVal = 0xfffffffe
	if r.first == nil {
		return 0
	}
	name := reasonUser(r.first)
	if name == "Unknown" {
		return noVal
	}
	if uid, ok := users.UID(name); ok {
		return int64(uid)
	}
	return noVal
}

// allowGroups is a partition's AllowGroups, empty for ALL (Slurm's
// NULL).
func allowGroups(r *sinfoRec) string {
	if r.part == nil {
		return ""
	}
	return strings.Join(r.part.AllowGroups, ",")
}

// byShared compares a value every node of a line shares ("" without
// nodes).
func byShared(f func(n *api.Node) string) sinfoCmp {
	get := func(r *sinfoRec) string {
		if r.first == nil {
			return ""
		}
		return f(r.first)
	}
	return func(a, b *sinfoRec) int { return strings.Compare(get(a), get(b)) }
}

// byFirstHost compares the first ranges of the lines' host lists
// (hostlist_cmp_first): node names sorted as sinfo sorts them before
// printing, host names and addresses in the order nodes joined the line.
// sinfo fills the host name and address lists only when the format
// prints them (kept false); otherwise every list is empty and the
// comparison always answers "greater", so -S n reverses the lines and
// -S -n keeps them.
func byFirstHost(name func(n *api.Node) string, kept, sorted bool) sinfoCmp {
	lists := map[*sinfoRec]*hostlist.List{}
	list := func(r *sinfoRec) *hostlist.List {
		if l, ok := lists[r]; ok {
			return l
		}
		l := &hostlist.List{}
		seen := make(map[string]bool, len(r.nodes))
		for _, n := range r.nodes {
			if s := name(n); kept && !seen[s] {
				seen[s] = true
				l.Push(s)
			}
		}
		if sorted {
			l.SortSlurm()
		}
		lists[r] = l
		return l
	}
	return func(a, b *sinfoRec) int { return hostlist.CompareFirst(list(a), list(b)) }
}
