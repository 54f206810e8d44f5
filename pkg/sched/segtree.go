package sched

// segTree is a segment tree over time bins holding free capacity, with
// range add and the two searches the start estimate needs. Padding leaves
// hold a very negative value so that no search lands on them.
type segTree struct {
	size int
	mn   []int64
	mx   []int64
	lz   []int64
}

const padValue = -1 << 60

func newSegTree(vals []int64) *segTree {
	size := 1
	for size < len(vals) {
		size *= 2
	}
	t := &segTree{size: size, mn: make([]int64, 2*size), mx: make([]int64, 2*size), lz: make([]int64, 2*size)}
	for i := 0; i < size; i++ {
		v := int64(padValue)
		if i < len(vals) {
			v = vals[i]
		}
		t.mn[size+i], t.mx[size+i] = v, v
	}
	for i := size - 1; i >= 1; i-- {
		t.mn[i] = min(t.mn[2*i], t.mn[2*i+1])
		t.mx[i] = max(t.mx[2*i], t.mx[2*i+1])
	}
	return t
}

func (t *segTree) apply(i int, v int64) {
	t.mn[i] += v
	t.mx[i] += v
	if i < t.size {
		t.lz[i] += v
	}
}

func (t *segTree) push(i int) {
	if v := t.lz[i]; v != 0 {
		t.apply(2*i, v)
		t.apply(2*i+1, v)
		t.lz[i] = 0
	}
}

// add adds v to every bin in [l, r).
func (t *segTree) add(l, r int, v int64) { t.addAt(1, 0, t.size, l, r, v) }

func (t *segTree) addAt(i, lo, hi, l, r int, v int64) {
	if r <= lo || hi <= l {
		return
	}
	if l <= lo && hi <= r {
		t.apply(i, v)
		return
	}
	t.push(i)
	mid := (lo + hi) / 2
	t.addAt(2*i, lo, mid, l, r, v)
	t.addAt(2*i+1, mid, hi, l, r, v)
	t.mn[i] = min(t.mn[2*i], t.mn[2*i+1])
	t.mx[i] = max(t.mx[2*i], t.mx[2*i+1])
}

// firstAtLeast returns the first bin >= from holding at least v, or -1.
func (t *segTree) firstAtLeast(from int, v int64) int { return t.atLeastAt(1, 0, t.size, from, v) }

func (t *segTree) atLeastAt(i, lo, hi, from int, v int64) int {
	if hi <= from || t.mx[i] < v {
		return -1
	}
	if hi-lo == 1 {
		return lo
	}
	t.push(i)
	mid := (lo + hi) / 2
	if f := t.atLeastAt(2*i, lo, mid, from, v); f >= 0 {
		return f
	}
	return t.atLeastAt(2*i+1, mid, hi, from, v)
}

// firstBelow returns the first bin in [l, r) holding less than v, or -1.
func (t *segTree) firstBelow(l, r int, v int64) int { return t.belowAt(1, 0, t.size, l, r, v) }

func (t *segTree) belowAt(i, lo, hi, l, r int, v int64) int {
	if r <= lo || hi <= l || t.mn[i] >= v {
		return -1
	}
	if hi-lo == 1 {
		return lo
	}
	t.push(i)
	mid := (lo + hi) / 2
	if f := t.belowAt(2*i, lo, mid, l, r, v); f >= 0 {
		return f
	}
	return t.belowAt(2*i+1, mid, hi, l, r, v)
}
