package sched

// Radix sorts for the two orders a cycle sorts every pending job into.
// At 50,000 jobs a comparison sort is a visible part of the cycle; a
// least-significant-byte-first radix sort of 64-bit keys reads the keys a
// few times instead, skipping the bytes every key shares (high bits of
// ids and priorities). Both sort to the same total order a comparison sort
// gives: every key is distinct, or the caller falls back.

// radixPasses sorts a by key, stably, using b (same length) as scratch,
// and returns the one of the two that holds the result.
func radixPasses[T any](a, b []T, key func(*T) uint64) []T {
	var counts [8][256]int
	for i := range a {
		k := key(&a[i])
		for d := range counts {
			counts[d][byte(k>>(8*d))]++
		}
	}
	for d := range counts {
		cnt := &counts[d]
		if cnt[byte(key(&a[0])>>(8*d))] == len(a) {
			continue // every key has the same byte here
		}
		sum := 0
		for v := range cnt {
			sum, cnt[v] = sum+cnt[v], sum
		}
		for i := range a {
			v := byte(key(&a[i]) >> (8 * d))
			b[cnt[v]] = a[i]
			cnt[v]++
		}
		a, b = b, a
	}
	return a
}

// radixSort sorts keys ascending; tmp is scratch of the same length.
func radixSort(keys, tmp []uint64) {
	if len(keys) < 2 {
		return
	}
	if out := radixPasses(keys, tmp, func(k *uint64) uint64 { return *k }); &out[0] != &keys[0] {
		copy(keys, out)
	}
}

// sortOrderKeys sorts keys into scheduling order (rank, then key,
// ascending) with tmp as scratch; ranks are below ranks. It reports false,
// leaving keys in some order, when two keys are equal: only a comparison
// sort then gives the order the scheduler has always used.
func sortOrderKeys(keys, tmp []orderKey, ranks int) bool {
	if len(keys) < 2 {
		return true
	}
	out := radixPasses(keys, tmp, func(k *orderKey) uint64 { return k.key })
	other := tmp
	if &out[0] == &tmp[0] {
		other = keys
	}
	if ranks > 1 {
		// Then stably by rank: a counting sort.
		start := make([]int, ranks)
		for i := range out {
			start[out[i].rank]++
		}
		sum := 0
		for r := range start {
			sum, start[r] = sum+start[r], sum
		}
		for i := range out {
			r := out[i].rank
			other[start[r]] = out[i]
			start[r]++
		}
		out = other
	}
	if &out[0] != &keys[0] {
		copy(keys, out)
	}
	for i := 1; i < len(keys); i++ {
		if keys[i].rank == keys[i-1].rank && keys[i].key == keys[i-1].key {
			return false
		}
	}
	return true
}
