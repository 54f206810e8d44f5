package hostlist

// CompareFirst compares the first ranges of two lists as Slurm's
// hostlist_cmp_first does (sinfo -S N, n and o): prefixes in natural
// order, a single host first, then the low ends, or the widths when the
// two cannot share one. An empty list has no first range, and Slurm then
// answers "greater" for the first list whatever the second holds, so the
// comparison is not symmetric: sinfo's sort result depends on it.
func CompareFirst(a, b *List) int {
	switch {
	case a == nil || len(a.ranges) == 0:
		return 1
	case b == nil || len(b.ranges) == 0:
		return -1
	}
	x, y := a.ranges[0], b.ranges[0] // compareRanges may change widths
	return compareRanges(&x, &y)
}
