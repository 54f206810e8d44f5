package sched

import "math/bits"

// bucketIndex files every schedulable node of every partition under its
// count of free, unheld GPUs. Each bucket is a bitset over node ranks, so a
// best-fit search walks the fullest nodes that still fit, in preference
// order, without looking at nodes that cannot fit; a per-bucket count lets
// a job that cannot fit anywhere fail in O(GPUs per node).
type bucketIndex struct {
	buckets int // maxG+1
	words   int
	bits    []uint64 // [(part*buckets+k)*words + w]
	count   []int32  // [part*buckets+k]
	cur     []int16  // node -> bucket it is filed under, -1 for none
}

func (b *bucketIndex) init(c *cycle) {
	b.buckets = c.maxG + 1
	b.words = (len(c.nodes) + 63) / 64
	b.bits = make([]uint64, len(c.parts)*b.buckets*b.words)
	b.count = make([]int32, len(c.parts)*b.buckets)
	b.cur = make([]int16, len(c.nodes))
	for i := range b.cur {
		b.cur[i] = -1
	}
	for i := range c.nodes {
		b.update(c, int32(i))
	}
}

// update refiles node ni after its free GPUs or state changed.
func (b *bucketIndex) update(c *cycle, ni int32) {
	n := &c.nodes[ni]
	k := int16(-1)
	if n.schedulable() {
		k = int16(n.freeG)
	}
	old := b.cur[ni]
	if old == k {
		return
	}
	w, bit := int(n.rank)/64, uint64(1)<<(uint(n.rank)%64)
	for _, p := range n.parts {
		if old >= 0 {
			s := int(p)*b.buckets + int(old)
			b.bits[s*b.words+w] &^= bit
			b.count[s]--
		}
		if k >= 0 {
			s := int(p)*b.buckets + int(k)
			b.bits[s*b.words+w] |= bit
			b.count[s]++
		}
	}
	b.cur[ni] = k
}

// atLeast counts the schedulable nodes of partition p with at least g free
// unheld GPUs.
func (b *bucketIndex) atLeast(p int32, g int) int {
	total := 0
	for k := max(g, 0); k < b.buckets; k++ {
		total += int(b.count[int(p)*b.buckets+k])
	}
	return total
}

// scan calls fn with the rank of each node of partition p filed under
// bucket k, in rank order, until fn returns false. fn may refile nodes;
// the scan then sees the bucket as it was when each word was read.
func (b *bucketIndex) scan(p int32, k int, fn func(rank int) bool) bool {
	s := (int(p)*b.buckets + k) * b.words
	for w := 0; w < b.words; w++ {
		x := b.bits[s+w]
		for x != 0 {
			t := bits.TrailingZeros64(x)
			x &= x - 1
			if !fn(w*64 + t) {
				return false
			}
		}
	}
	return true
}
