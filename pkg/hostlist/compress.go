package hostlist

import (
	"slices"
	"strings"
)

// Compress returns the shortest Slurm host list for names, sorted in Slurm's
// order and with duplicates removed, as slurmctld prints a node list.
// Expand(Compress(names)) returns the sorted unique names. Names must be
// plain host names: without brackets, commas or white space.
func Compress(names []string) string {
	sorted := slices.Clone(names)
	Sort(sorted)
	sorted = slices.Compact(sorted)
	return Ranged(sorted)
}

// keyed is a name with its prefix and suffix split once, for sorting.
type keyed struct {
	name string
	r    Range
}

// Ranged returns names as one host list in the given order, duplicates
// kept, as `scontrol show hostlist` prints them: names that continue a
// range join it, and neighbouring ranges with one prefix share brackets
// ("n3,n1,n2" gives "n[3,1-2]").
func Ranged(names []string) string {
	var l List
	for _, name := range names {
		l.Push(name)
	}
	return l.String()
}

// Sort sorts host names in place in Slurm's order (hostlist_sort): by
// prefix in natural order ("rack9" before "rack10"), a name without a
// numeric suffix before names with one, then by numeric suffix, keeping
// zero-padded suffixes of different widths apart ("n9" < "n10" < "n010").
func Sort(names []string) {
	keys := make([]keyed, len(names))
	for i, n := range names {
		keys[i] = keyed{n, splitName(n)}
	}
	slices.SortFunc(keys, func(a, b keyed) int { return compareSplit(a.name, b.name, a.r, b.r) })
	for i, k := range keys {
		names[i] = k.name
	}
}

// Compare orders two host names as Sort does. It returns a negative number
// when a sorts first, a positive one when b does, and zero only when a == b.
func Compare(a, b string) int {
	return compareSplit(a, b, splitName(a), splitName(b))
}

func compareSplit(a, b string, ra, rb Range) int {
	if c := natCompare(ra.Prefix, rb.Prefix); c != 0 {
		return c
	}
	if ra.Single != rb.Single {
		if ra.Single {
			return -1
		}
		return 1
	}
	if c := compareSuffix(ra, rb); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// compareSuffix orders the numeric suffixes of two names with one prefix.
// Slurm compares widths when zero padding makes them incompatible and
// numbers otherwise; that rule is the same as ordering by (width class,
// padded before unpadded, number), where an unpadded number's width class
// is its digit count. Unlike Slurm's comparator this key is transitive, so
// the result does not depend on the input order.
func compareSuffix(a, b Range) int {
	ka, kb := suffixKey(a), suffixKey(b)
	if ka.width != kb.width {
		return ka.width - kb.width
	}
	if ka.unpadded != kb.unpadded {
		if ka.unpadded {
			return 1
		}
		return -1
	}
	switch {
	case a.Lo < b.Lo:
		return -1
	case a.Lo > b.Lo:
		return 1
	}
	return 0
}

type sortKey struct {
	width    int
	unpadded bool
}

func suffixKey(r Range) sortKey {
	return sortKey{width: r.Width, unpadded: zeroPadding(r.Lo, r.Width) == 0}
}
