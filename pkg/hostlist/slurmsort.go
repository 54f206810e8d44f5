package hostlist

import "math"

// SortSlurm sorts the list's ranges as Slurm's hostlist_sort does, for
// `scontrol show hostlistsorted`: ranges (not names) are ordered, so a
// prefix written before a bracket stays apart ("n0[9-10]" sorts after
// "n[023]"), overlapping ranges are split at their shared hosts, and
// neighbours are joined; duplicates are kept ("n1,n1,n2" gives n[1,1-2]).
//
// Slurm's comparator is not transitive and adjusts zero-padding widths as
// it compares, so its result depends on the sorting algorithm: SortSlurm
// uses the same top-down merge sort as the C library Slurm runs on.
func (l *List) SortSlurm() {
	if len(l.ranges) <= 1 {
		return
	}
	rs := make([]*Range, len(l.ranges))
	for i := range l.ranges {
		r := l.ranges[i]
		rs[i] = &r
	}
	GlibcMsort(rs, make([]*Range, len(rs)), compareRanges)
	rs = collapse(coalesce(rs))
	l.ranges = l.ranges[:0]
	l.n = 0
	for _, r := range rs {
		l.ranges = append(l.ranges, *r)
		l.n += int(r.Len())
	}
}

// compareRanges is Slurm's hostrange_cmp: prefixes in natural order, a
// single host first, then the low ends when the widths can be joined
// (making them equal) and the widths otherwise.
func compareRanges(a, b *Range) int {
	if c := comparePrefix(a, b); c != 0 {
		return c
	}
	if widthEquiv(a.Lo, &a.Width, b.Lo, &b.Width) {
		// Slurm returns lo1 - lo2 cast to int, which misorders numbers
		// 2^31 apart and can then grow a range by billions of hosts in
		// coalesce; the sign of the difference is the intent.
		switch {
		case a.Lo < b.Lo:
			return -1
		case a.Lo > b.Lo:
			return 1
		}
		return 0
	}
	return a.Width - b.Width
}

// comparePrefix is Slurm's hostrange_prefix_cmp.
func comparePrefix(a, b *Range) int {
	if c := natCompare(a.Prefix, b.Prefix); c != 0 {
		return c
	}
	return boolInt(b.Single) - boolInt(a.Single)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// GlibcMsort sorts b as glibc's msort_with_tmp, which Slurm's list_sort
// runs: halves (the first the smaller), each sorted, then merged taking
// from the first half while cmp says <= 0. Replaying it step by step
// matters where Slurm's comparisons are not a consistent order (sinfo -S
// on empty host lists). tmp is scratch space as long as b.
func GlibcMsort[T any](b, tmp []T, cmp func(x, y T) int) {
	n := len(b)
	if n <= 1 {
		return
	}
	n1 := n / 2
	GlibcMsort(b[:n1], tmp, cmp)
	GlibcMsort(b[n1:], tmp, cmp)
	i, k, t := 0, n1, 0
	for i < n1 && k < n {
		if cmp(b[i], b[k]) <= 0 {
			tmp[t] = b[i]
			i++
		} else {
			tmp[t] = b[k]
			k++
		}
		t++
	}
	t += copy(tmp[t:], b[i:n1])
	copy(b, tmp[:t]) // what is left of the second half is in place
}

// intersect is Slurm's hostrange_intersect for a <= b: the hosts of b
// that a also holds, or nil. Touching ranges (a.Hi == b.Lo) do not
// intersect, as in Slurm.
func intersect(a, b *Range) *Range {
	if a.Single || b.Single {
		return nil
	}
	if a.Hi > b.Lo && comparePrefix(a, b) == 0 && widthEquiv(a.Lo, &a.Width, b.Lo, &b.Width) {
		r := *a
		r.Lo, r.Hi = b.Lo, min(a.Hi, b.Hi)
		return &r
	}
	return nil
}

// coalesce is Slurm's hostlist_coalesce: each pair of sorted neighbours
// that intersect is split so that every shared host is a range of its own,
// and the scan starts over from the end.
func coalesce(rs []*Range) []*Range {
	for i := len(rs) - 1; i > 0; i-- {
		shared := intersect(rs[i-1], rs[i])
		if shared == nil {
			continue
		}
		prev, next := rs[i-1], rs[i]
		j := i
		if shared.Hi < prev.Hi {
			next.Hi = prev.Hi
		}
		prev.Hi = shared.Lo
		next.Lo = shared.Hi
		if prev.Hi < prev.Lo || prev.Hi == math.MaxUint64 {
			rs = deleteRange(rs, i) // index i, as Slurm does
		}
		for n := shared.Lo; n <= shared.Hi; n++ {
			one := &Range{Prefix: shared.Prefix, Lo: n, Hi: n, Width: shared.Width}
			if n > prev.Hi {
				rs = insertRange(rs, one, j)
				j++
			}
			if n < next.Lo {
				c := *one
				rs = insertRange(rs, &c, j)
				j++
			}
			if n == math.MaxUint64 {
				break
			}
		}
		i = len(rs)
	}
	return rs
}

// collapse is Slurm's hostlist_collapse: neighbours with one prefix whose
// numbers follow each other are joined, scanning from the end.
func collapse(rs []*Range) []*Range {
	for i := len(rs) - 1; i > 0; i-- {
		prev, next := rs[i-1], rs[i]
		if comparePrefix(prev, next) == 0 && prev.Hi == next.Lo-1 &&
			widthEquiv(prev.Lo, &prev.Width, next.Lo, &next.Width) {
			prev.Hi = next.Hi
			rs = deleteRange(rs, i)
		}
	}
	return rs
}

func deleteRange(rs []*Range, i int) []*Range {
	return append(rs[:i], rs[i+1:]...)
}

func insertRange(rs []*Range, r *Range, i int) []*Range {
	rs = append(rs, nil)
	copy(rs[i+1:], rs[i:])
	rs[i] = r
	return rs
}
