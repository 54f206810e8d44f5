package estimate

// segTree holds free capacity per time bin with range add, range minimum
// and the two searches placement needs. Leaves past the last bin hold a
// very negative value so no search lands on them.
type segTree struct {
	size   int
	lo, hi []int64 // minimum and maximum of each node's range
	add    []int64 // pending addition for the node's children
}

const padding = -1 << 60

func newSegTree(vals []int64) *segTree {
	size := 1
	for size < len(vals) {
		size *= 2
	}
	t := &segTree{size: size, lo: make([]int64, 2*size), hi: make([]int64, 2*size), add: make([]int64, 2*size)}
	for i := range size {
		v := int64(padding)
		if i < len(vals) {
			v = vals[i]
		}
		t.lo[size+i], t.hi[size+i] = v, v
	}
	for i := size - 1; i >= 1; i-- {
		t.pull(i)
	}
	return t
}

func (t *segTree) pull(i int) {
	t.lo[i] = min(t.lo[2*i], t.lo[2*i+1]) + t.add[i]
	t.hi[i] = max(t.hi[2*i], t.hi[2*i+1]) + t.add[i]
}

// addRange adds v to the bins in [l, r).
func (t *segTree) addRange(l, r int, v int64) {
	if l < r {
		t.addAt(1, 0, t.size, l, r, v)
	}
}

func (t *segTree) addAt(i, nl, nr, l, r int, v int64) {
	if r <= nl || nr <= l {
		return
	}
	if l <= nl && nr <= r {
		t.lo[i] += v
		t.hi[i] += v
		if i < t.size {
			t.add[i] += v
		}
		return
	}
	mid := (nl + nr) / 2
	t.addAt(2*i, nl, mid, l, r, v)
	t.addAt(2*i+1, mid, nr, l, r, v)
	t.pull(i)
}

// firstAtLeast returns the first bin at or after from whose value is at
// least u, or -1.
func (t *segTree) firstAtLeast(from int, u int64) int {
	return t.find(1, 0, t.size, from, 0, func(lo, hi int64) bool { return hi >= u })
}

// firstBelow returns the first bin in [from, to) whose value is below u,
// or -1.
func (t *segTree) firstBelow(from, to int, u int64) int {
	i := t.find(1, 0, t.size, from, 0, func(lo, hi int64) bool { return lo < u })
	if i >= to {
		return -1
	}
	return i
}

// find descends to the first leaf at or after from where ok holds for
// the leaf's value; acc is the additions of the ancestors above i.
func (t *segTree) find(i, nl, nr, from int, acc int64, ok func(lo, hi int64) bool) int {
	if nr <= from || !ok(t.lo[i]+acc, t.hi[i]+acc) {
		return -1
	}
	if i >= t.size {
		return nl
	}
	acc += t.add[i]
	mid := (nl + nr) / 2
	if r := t.find(2*i, nl, mid, from, acc, ok); r >= 0 {
		return r
	}
	return t.find(2*i+1, mid, nr, from, acc, ok)
}
