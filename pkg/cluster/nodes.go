package cluster

import (
	"errors"
	"fmt"
	"slices"

	"github.com/loamhpc/loam/pkg/sched"
)

// nodeUse is what running jobs hold on one node.
type nodeUse struct {
	cpus int
	mem  int64
	gpus []bool // by GPU index
	jobs int
}

func (c *Cluster) setNodes(nodes []sched.Node) error {
	idx := make(map[string]int, len(nodes))
	for i, n := range nodes {
		if n.Name == "" {
			return fmt.Errorf("node %d: empty name: %w", i, ErrInvalid)
		}
		if _, dup := idx[n.Name]; dup {
			return fmt.Errorf("node %s: defined twice: %w", n.Name, ErrInvalid)
		}
		if n.CPUs < 0 || n.GPUs < 0 || n.MemMB < 0 {
			return fmt.Errorf("node %s: negative capacity: %w", n.Name, ErrInvalid)
		}
		idx[n.Name] = i
	}
	c.nodes = slices.Clone(nodes)
	c.nodeIdx = idx
	c.used = make([]nodeUse, len(nodes))
	for i, n := range nodes {
		c.used[i].gpus = make([]bool, n.GPUs)
	}
	return nil
}

// Nodes returns the nodes' capacity and state, in configuration order. The
// slice is the cluster's own: read it, do not keep it.
func (c *Cluster) Nodes() []sched.Node { return c.nodes }

// NodeUse says what running jobs hold on a node.
type NodeUse struct {
	CPUs  int
	MemMB int64
	GPUs  int
	Jobs  int
}

// Used returns what running jobs hold on node name.
func (c *Cluster) Used(name string) (NodeUse, bool) {
	i, ok := c.nodeIdx[name]
	if !ok {
		return NodeUse{}, false
	}
	u := c.used[i]
	n := 0
	for _, b := range u.gpus {
		if b {
			n++
		}
	}
	return NodeUse{CPUs: u.cpus, MemMB: u.mem, GPUs: n, Jobs: u.jobs}, true
}

// SetNodeState changes a node's state and returns the running jobs on it,
// in id order. When the node goes down the caller ends or requeues them (as
// NODE_FAIL); the cluster keeps them running until told.
func (c *Cluster) SetNodeState(name string, st sched.NodeState) ([]sched.JobID, error) {
	i, ok := c.nodeIdx[name]
	if !ok {
		return nil, fmt.Errorf("set node state %s: %w", name, ErrUnknownNode)
	}
	c.nodes[i].State = st
	var ids []sched.JobID
	if c.used[i].jobs == 0 {
		return nil, nil
	}
	for _, r := range c.running {
		for _, a := range r.Alloc {
			if a.Node == name {
				ids = append(ids, r.ID)
				break
			}
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// checkAlloc verifies that alloc fits the free resources of up nodes now
// (of any node when anyState is set, for Restore).
func (c *Cluster) checkAlloc(alloc []sched.NodeAlloc, anyState bool) error {
	if len(alloc) == 0 {
		return errors.New("empty allocation")
	}
	seen := make(map[string]bool, len(alloc))
	for _, a := range alloc {
		i, ok := c.nodeIdx[a.Node]
		if !ok {
			return fmt.Errorf("node %s: %w", a.Node, ErrUnknownNode)
		}
		if seen[a.Node] {
			return fmt.Errorf("node %s allocated twice", a.Node)
		}
		seen[a.Node] = true
		if err := c.checkNode(i, a, anyState); err != nil {
			return fmt.Errorf("node %s: %w", a.Node, err)
		}
	}
	return nil
}

func (c *Cluster) checkNode(i int, a sched.NodeAlloc, anyState bool) error {
	n, u := &c.nodes[i], &c.used[i]
	switch {
	case n.State != sched.NodeUp && !anyState:
		return errors.New("node not up")
	case a.CPUs < 0 || a.MemMB < 0:
		return errors.New("negative allocation")
	case u.cpus+a.CPUs > n.CPUs:
		return fmt.Errorf("cpus over capacity (%d used + %d > %d)", u.cpus, a.CPUs, n.CPUs)
	case u.mem+a.MemMB > n.MemMB:
		return fmt.Errorf("memory over capacity (%d used + %d > %d MB)", u.mem, a.MemMB, n.MemMB)
	case len(a.Borrowed) != 0 && len(a.Borrowed) != len(a.GPUs):
		return errors.New("borrowed labels do not match gpus")
	}
	for k, g := range a.GPUs {
		if g < 0 || g >= n.GPUs {
			return fmt.Errorf("gpu index %d out of range", g)
		}
		if u.gpus[g] || slices.Contains(a.GPUs[:k], g) {
			return fmt.Errorf("gpu %d already allocated", g)
		}
	}
	return nil
}

// take marks alloc as used; checkAlloc must have accepted it.
func (c *Cluster) take(alloc []sched.NodeAlloc) {
	for _, a := range alloc {
		u := &c.used[c.nodeIdx[a.Node]]
		u.cpus += a.CPUs
		u.mem += a.MemMB
		u.jobs++
		for _, g := range a.GPUs {
			u.gpus[g] = true
		}
	}
}

// free returns alloc to the nodes.
func (c *Cluster) free(alloc []sched.NodeAlloc) {
	for _, a := range alloc {
		i, ok := c.nodeIdx[a.Node]
		if !ok {
			continue // node removed by a reconfigure while the job ran
		}
		u := &c.used[i]
		u.cpus -= a.CPUs
		u.mem -= a.MemMB
		u.jobs--
		for _, g := range a.GPUs {
			if g >= 0 && g < len(u.gpus) {
				u.gpus[g] = false
			}
		}
	}
}

// Reconfigure swaps in a new configuration and node list. It changes nothing
// and returns an error when a node that holds running jobs would disappear
// or shrink below what they hold. Node states are kept for nodes that stay.
// Reservations are dropped (the scheduler rebuilds them next cycle).
func (c *Cluster) Reconfigure(cfg sched.Config, nodes []sched.Node) error {
	next := &Cluster{}
	if err := next.setNodes(nodes); err != nil {
		return fmt.Errorf("reconfigure: %w", err)
	}
	for i, n := range c.nodes {
		if c.used[i].jobs == 0 {
			continue
		}
		j, ok := next.nodeIdx[n.Name]
		if !ok {
			return fmt.Errorf("reconfigure: node %s runs jobs but is gone: %w", n.Name, ErrInvalid)
		}
		nn, u := next.nodes[j], c.used[i]
		if nn.CPUs < u.cpus || nn.MemMB < u.mem || nn.GPUs < highestGPU(u.gpus)+1 {
			return fmt.Errorf("reconfigure: node %s would shrink below its running jobs: %w", n.Name, ErrInvalid)
		}
	}
	for i, n := range c.nodes {
		if j, ok := next.nodeIdx[n.Name]; ok {
			next.nodes[j].State = n.State
			next.used[j].cpus, next.used[j].mem, next.used[j].jobs = c.used[i].cpus, c.used[i].mem, c.used[i].jobs
			copy(next.used[j].gpus, c.used[i].gpus)
		}
	}
	c.cfg, c.nodes, c.used, c.nodeIdx = cfg, next.nodes, next.used, next.nodeIdx
	c.resv = c.resv[:0]
	return nil
}

func highestGPU(gpus []bool) int {
	for g := len(gpus) - 1; g >= 0; g-- {
		if gpus[g] {
			return g
		}
	}
	return -1
}
