package sched

import "slices"

// nodeClass is a run of a partition's nodes that every static check
// (capacity, GPU type, features, TmpDisk, up or not) treats alike: feasibility
// counts classes, not nodes. A node's index only matters to -x, so
// requests with an exclude list still walk the nodes.
type nodeClass struct {
	rep   int32 // a node of the class
	count int
}

// maxNodeClasses bounds the classes of one partition; a partition of more
// distinct nodes is walked node by node.
const maxNodeClasses = 64

// classesOf returns partition p's node classes, computed on first use in
// the cycle, or nil when it has too many.
func (c *cycle) classesOf(p *partInfo) []nodeClass {
	if c.classes == nil {
		c.classes = make([][]nodeClass, len(c.parts))
		c.classesDone = make([]bool, len(c.parts))
	}
	if c.classesDone[p.idx] {
		return c.classes[p.idx]
	}
	c.classesDone[p.idx] = true
	var out []nodeClass
	last := -1
	for _, ni := range p.nodes {
		if last >= 0 && c.sameClass(out[last].rep, ni) {
			out[last].count++
			continue
		}
		last = slices.IndexFunc(out, func(cl nodeClass) bool { return c.sameClass(cl.rep, ni) })
		if last >= 0 {
			out[last].count++
			continue
		}
		if len(out) == maxNodeClasses {
			return nil
		}
		out = append(out, nodeClass{rep: ni, count: 1})
		last = len(out) - 1
	}
	c.classes[p.idx] = out
	return out
}

// sameClass reports whether nodes a and b pass the same static checks.
func (c *cycle) sameClass(a, b int32) bool {
	x, y := &c.nodes[a], &c.nodes[b]
	return x.gpus == y.gpus && x.cpus == y.cpus && x.mem == y.mem && x.gpuType == y.gpuType && x.tmp == y.tmp &&
		x.schedulable() == y.schedulable() && slices.Equal(x.features, y.features)
}
