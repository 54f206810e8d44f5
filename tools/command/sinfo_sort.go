package command

import (
	"cmp"
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
)

// sortRecs orders lines as sinfo does: by default partition order, then
// state descending ("#P,-t"); with -N by node name ("N"). Each key is a
// stable sort, applied from the last key to the first.
func (p *sinfoParams) sortRecs(recs []*sinfoRec) {
	spec := p.sort
	if !p.sortSet {
		spec = "#P,-t"
		if p.nodeFlag {
			spec = "N"
		}
	}
	for i := len(spec) - 1; i >= 0; i-- {
		c := spec[i]
		if c == ',' || c == '#' || c == '+' || c == '-' {
			continue
		}
		rev := i > 0 && spec[i-1] == '-'
		partOrder := i > 0 && spec[i-1] == '#'
		f := sinfoSortKey(c, partOrder)
		if f == nil {
			continue
		}
		slices.SortStableFunc(recs, func(a, b *sinfoRec) int {
			if rev {
				return -f(a, b)
			}
			return f(a, b)
		})
	}
}

// sinfoSortKey compares two lines by the -S letter c, as sinfo's sort.c:
// node values by the line's smallest, partition values by the line's
// partition, strings bytewise; nil for a letter sinfo does not sort by.
func sinfoSortKey(c byte, partOrder bool) func(a, b *sinfoRec) int {
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
		return func(a, b *sinfoRec) int { return cmp.Compare(a.state, b.state) }
	case 'N':
		return byFirst(func(n *api.Node) string { return n.Name })
	case 'n':
		return byFirst(func(n *api.Node) string { return n.Hostname })
	case 'o':
		return byFirst(func(n *api.Node) string { return n.Address })
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
	case 'u', 'U':
		return byShared(func(n *api.Node) string { return n.ReasonUser })
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
		return func(n *api.Node) int64 { return int64(n.CPULoad * 100) }
	case 'H':
		return func(n *api.Node) int64 { return n.ReasonTime }
	case 'X':
		return func(n *api.Node) int64 { return int64(n.Sockets) }
	case 'Y':
		return func(n *api.Node) int64 { return int64(n.CoresPerSocket) }
	case 'Z':
		return func(n *api.Node) int64 { return int64(n.ThreadsPerCore) }
	}
	return nil
}

// sinfoPartKey is the partition number a -S letter sorts lines by;
// UNLIMITED counts as the largest, as Slurm's INFINITE.
func sinfoPartKey(c byte) func(p *api.Partition) int64 {
	switch c {
	case 'l':
		return func(p *api.Partition) int64 { return unlimitedLast(p.MaxTime) }
	case 's':
		return func(p *api.Partition) int64 {
			if p.MaxNodes <= 0 || p.MaxNodes >= 1<<31 {
				return 1 << 32
			}
			return p.MaxNodes + p.MinNodes
		}
	case 'p':
		return func(p *api.Partition) int64 { return int64(p.PriorityTier) }
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

// byShared compares a value every node of a line shares ("" without
// nodes).
func byShared(f func(n *api.Node) string) func(a, b *sinfoRec) int {
	get := func(r *sinfoRec) string {
		if r.first == nil {
			return ""
		}
		return f(r.first)
	}
	return func(a, b *sinfoRec) int { return strings.Compare(get(a), get(b)) }
}

// byFirst compares the lines' first host names in host list order.
func byFirst(f func(n *api.Node) string) func(a, b *sinfoRec) int {
	first := func(r *sinfoRec) string {
		names := make([]string, 0, len(r.nodes))
		for _, n := range r.nodes {
			names = append(names, f(n))
		}
		if len(names) == 0 {
			return ""
		}
		hostlist.Sort(names)
		return names[0]
	}
	return func(a, b *sinfoRec) int { return hostlist.Compare(first(a), first(b)) }
}
