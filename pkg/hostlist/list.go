package hostlist

import (
	"iter"
	"math"
	"strconv"
	"strings"
)

// Range is a run of host names that share a prefix and differ only in a
// numeric suffix: Prefix + Lo..Hi, each zero-padded to Width digits. A name
// without a numeric suffix is a Range with Single set and the whole name in
// Prefix.
type Range struct {
	Prefix string
	Lo, Hi uint64
	Width  int
	Single bool
}

// Len returns how many names r holds.
func (r Range) Len() uint64 {
	switch {
	case r.Single:
		return 1
	case r.Hi < r.Lo: // left by SortSlurm, as by Slurm's sort
		return 0
	}
	return r.Hi - r.Lo + 1
}

// name returns the i-th name of r.
func (r Range) name(i uint64) string {
	if r.Single {
		return r.Prefix
	}
	return r.Prefix + pad(r.Lo+i, r.Width)
}

// List is a compact host list: ranges in list order, adjacent ranges merged
// as Slurm merges them. Its zero value is an empty list. A 100k-node
// cluster's node list is a handful of Ranges.
type List struct {
	ranges []Range
	n      int
}

// Parse parses a host list expression into a List without expanding the
// last bracket group of each entry. It fails on malformed lists and on lists
// of more than MaxHosts names.
func Parse(list string) (*List, error) {
	entries, err := parseList(list)
	if err != nil {
		return nil, err
	}
	return build(list, entries)
}

// pushEntry appends the ranges of e: one per span of its last group for
// every expansion of the groups before it.
func (l *List) pushEntry(e entry) {
	if e.groups == nil {
		l.Push(e.name)
		return
	}
	last := e.groups[len(e.groups)-1]
	eachPrefix(e.groups[:len(e.groups)-1], func(prefix string) bool {
		for _, s := range last.spans {
			l.pushRange(Range{Prefix: prefix + last.lead, Lo: s.lo, Hi: s.hi, Width: s.width})
		}
		return true
	})
}

// Push appends one host name to the list.
func (l *List) Push(name string) {
	l.pushRange(splitName(name))
}

// pushRange appends r, merging it into the last range when r continues it,
// as Slurm's hostlist_push_range does.
func (l *List) pushRange(r Range) {
	l.n += int(r.Len())
	if k := len(l.ranges); k > 0 {
		tail := &l.ranges[k-1]
		if !tail.Single && !r.Single && tail.Prefix == r.Prefix &&
			tail.Hi < r.Lo && tail.Hi+1 == r.Lo && widthEquiv(tail.Lo, &tail.Width, r.Lo, &r.Width) {
			tail.Hi = r.Hi
			return
		}
	}
	l.ranges = append(l.ranges, r)
}

// Len returns the number of names in the list, duplicates included.
func (l *List) Len() int { return l.n }

// Ranges returns the list's ranges; the caller must not modify them.
func (l *List) Ranges() []Range { return l.ranges }

// All iterates over every name in list order.
func (l *List) All() iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, r := range l.ranges {
			for i := uint64(0); i < r.Len(); i++ {
				if !yield(r.name(i)) {
					return
				}
			}
		}
	}
}

// Hosts returns every name in list order.
func (l *List) Hosts() []string {
	out := make([]string, 0, l.n)
	for h := range l.All() {
		out = append(out, h)
	}
	return out
}

// String prints the list as Slurm's hostlist_ranged_string does: ranges with
// the same prefix that follow each other share one bracket group.
func (l *List) String() string {
	var b strings.Builder
	for i := 0; i < len(l.ranges); {
		j := i + 1
		for j < len(l.ranges) && sameBracket(l.ranges[i], l.ranges[j]) {
			j++
		}
		if i > 0 { // after an empty name too, as Slurm's ",."
			b.WriteByte(',')
		}
		writeGroup(&b, l.ranges[i:j])
		i = j
	}
	return b.String()
}

// sameBracket reports whether a and b print inside one bracket group.
func sameBracket(a, b Range) bool {
	return !a.Single && !b.Single && a.Prefix == b.Prefix
}

func writeGroup(b *strings.Builder, rs []Range) {
	b.WriteString(rs[0].Prefix)
	if rs[0].Single {
		return
	}
	bracket := len(rs) > 1 || rs[0].Hi != rs[0].Lo
	if bracket {
		b.WriteByte('[')
	}
	for k, r := range rs {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(pad(r.Lo, r.Width))
		if r.Lo < r.Hi { // an emptied range prints its low end, as Slurm's
			b.WriteByte('-')
			b.WriteString(pad(r.Hi, r.Width))
		}
	}
	if bracket {
		b.WriteByte(']')
	}
}

// splitName splits a host name into prefix and numeric suffix as Slurm's
// hostname_create does: the suffix is the run of trailing digits. A name
// without trailing digits, or whose suffix does not fit below the largest
// uint64 (which Slurm reads as an empty range), is a single host.
func splitName(name string) Range {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i == len(name) {
		return Range{Prefix: name, Single: true}
	}
	n, err := strconv.ParseUint(name[i:], 10, 64)
	if err != nil || n == math.MaxUint64 {
		return Range{Prefix: name, Single: true}
	}
	return Range{Prefix: name[:i], Lo: n, Hi: n, Width: len(name) - i}
}

// zeroPadding returns how many zeros printing n at width adds.
func zeroPadding(n uint64, width int) int {
	return max(width-len(strconv.FormatUint(n, 10)), 0)
}

// widthEquiv reports whether n printed at *wn and m printed at *wm can share
// one width without changing the zero padding of either, and if so makes the
// widths equal. This is Slurm's rule for joining "9" and "10" into [9-10]
// while keeping "1" and "01" apart.
func widthEquiv(n uint64, wn *int, m uint64, wm *int) bool {
	if *wn == *wm {
		return true
	}
	npad, nmpad := zeroPadding(n, *wn), zeroPadding(n, *wm)
	mpad, mnpad := zeroPadding(m, *wm), zeroPadding(m, *wn)
	switch {
	case npad != nmpad && mpad != mnpad:
		return false
	case npad != nmpad:
		*wm = *wn
	default:
		*wn = *wm
	}
	return true
}
