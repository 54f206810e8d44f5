package estimate

import (
	"slices"
	"strings"
)

// Layout maps partitions and nodes to pools: each distinct set of nodes
// some partition covers is one pool, as pkg/sched groups them.
type Layout struct {
	pools     []Pool
	partPool  map[string]int
	nodePools map[string][]int
	up        map[string]bool
}

// PartitionNodes names a partition's nodes.
type PartitionNodes struct {
	Name  string
	Nodes []string
}

// Node is a node's capacity; only nodes that are Up count.
type Node struct {
	Name string
	GPUs int
	CPUs int
	Up   bool
}

// NodeUse is what a job holds on one node.
type NodeUse struct {
	Node string
	GPUs int
	CPUs int
}

// NewLayout builds the pools of parts over nodes.
func NewLayout(parts []PartitionNodes, nodes []Node) *Layout {
	l := &Layout{partPool: map[string]int{}, nodePools: map[string][]int{}, up: map[string]bool{}}
	byName := map[string]Node{}
	for _, n := range nodes {
		byName[n.Name] = n
		l.up[n.Name] = n.Up
	}
	byKey := map[string]int{}
	for _, p := range parts {
		names := slices.Clone(p.Nodes)
		slices.Sort(names)
		names = slices.Compact(names)
		k := strings.Join(names, ",")
		id, ok := byKey[k]
		if !ok {
			id = len(l.pools)
			byKey[k] = id
			var pl Pool
			for _, name := range names {
				l.nodePools[name] = append(l.nodePools[name], id)
				if n, ok := byName[name]; ok && n.Up {
					pl.GPUs += n.GPUs
					pl.CPUs += n.CPUs
				}
			}
			l.pools = append(l.pools, pl)
		}
		l.partPool[p.Name] = id
	}
	return l
}

// Pools returns the pools' capacities, indexed as Pool and Held number
// them.
func (l *Layout) Pools() []Pool { return l.pools }

// Pool returns the pool of a partition, or -1 for an unknown partition.
func (l *Layout) Pool(partition string) int {
	if id, ok := l.partPool[partition]; ok {
		return id
	}
	return -1
}

// Held sums what an allocation holds in every pool its nodes belong to;
// nodes that are not up hold nothing the pools count.
func (l *Layout) Held(alloc []NodeUse) []Use {
	var out []Use
	for _, a := range alloc {
		if !l.up[a.Node] {
			continue
		}
		for _, id := range l.nodePools[a.Node] {
			k := slices.IndexFunc(out, func(u Use) bool { return u.Pool == id })
			if k < 0 {
				out = append(out, Use{Pool: id})
				k = len(out) - 1
			}
			out[k].GPUs += a.GPUs
			out[k].CPUs += a.CPUs
		}
	}
	return out
}
