package cluster

import (
	"slices"

	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/sched"
)

// settle puts a start's nodes in Slurm's node order (host names, as the
// peer's node table sorts them: cpu001 before gpu001) and moves the
// largest CPU share to the first node, as Slurm's cons_tres fills the
// first node of an allocation with what is left after every node got its
// least share (the peer: -N2 -n4 runs 3,1 and -N3 -n4 2,1,1 over
// cpu[001-003], whichever nodes the scheduler picked for which share).
// The move happens only when the first node has room for it beyond what
// is used and what later starts of the same plan take there (later: CPUs
// and memory per node, not yet applied); otherwise the scheduler's shares
// stay. Memory follows the CPUs when it is asked per CPU. GPUs never move.
func (c *Cluster) settle(spec *JobSpec, alloc []sched.NodeAlloc, later map[string]nodeUse) []sched.NodeAlloc {
	out := cloneAlloc(alloc)
	slices.SortStableFunc(out, func(a, b sched.NodeAlloc) int { return hostlist.Compare(a.Node, b.Node) })
	if len(out) < 2 || spec.Shape.Exclusive {
		return out
	}
	k := 0
	for i := range out {
		if out[i].CPUs > out[k].CPUs {
			k = i
		}
	}
	if k == 0 {
		return out
	}
	first, big := &out[0], &out[k]
	moveMem := spec.Shape.MemPerCPU > 0 && spec.Shape.MemPerNode == 0
	dc, dm := big.CPUs-first.CPUs, int64(0)
	if moveMem {
		dm = big.MemMB - first.MemMB
	}
	i, ok := c.nodeIdx[first.Node]
	if !ok {
		return out
	}
	n, u, l := c.nodes[i], c.used[i], later[first.Node]
	if u.cpus+l.cpus+first.CPUs+dc > n.CPUs || u.mem+l.mem+first.MemMB+dm > n.MemMB {
		return out
	}
	first.CPUs, big.CPUs = big.CPUs, first.CPUs
	if moveMem {
		first.MemMB, big.MemMB = big.MemMB, first.MemMB
	}
	return out
}

// planUse sums the CPUs and memory the plan's starts take per node.
func planUse(starts []sched.Start) map[string]nodeUse {
	out := map[string]nodeUse{}
	for _, st := range starts {
		addUse(out, st.Alloc, 1)
	}
	return out
}

// addUse adds (sign 1) or removes (sign -1) alloc's CPUs and memory.
func addUse(m map[string]nodeUse, alloc []sched.NodeAlloc, sign int) {
	for _, a := range alloc {
		u := m[a.Node]
		u.cpus += sign * a.CPUs
		u.mem += int64(sign) * a.MemMB
		m[a.Node] = u
	}
}
