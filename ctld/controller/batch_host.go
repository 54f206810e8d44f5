package controller

import (
	"slices"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// batchHost is the node that runs a starting job's batch script: with
// --batch, the first of its nodes in slurm.conf's order whose active
// features pass the list (job.BatchTest); else, or when none does, its
// first node, as slurmctld picks it. The scheduler does not look for
// such a node, nor does Slurm's: the peer ran a -N2 -C '[gpu|cpu]'
// --batch=cpu job that got gpu[001-002] on gpu001, and a -N2 -C
// '[cpu*1&gpu*1]' --batch=gpu one on gpu001 of cpu001,gpu001.
func (c *Controller) batchHost(q *job.Request, alloc []api.NodeAllocation) string {
	first := alloc[0].Node
	if q.BatchFeatures == nil || len(alloc) < 2 {
		return first
	}
	test := job.BatchTest(*q.BatchFeatures, c.featureActive)
	if test == nil {
		return first
	}
	for _, nc := range c.confNow().conf.Nodes {
		if !slices.ContainsFunc(alloc, func(a api.NodeAllocation) bool { return a.Node == nc.Name }) {
			continue
		}
		if n := c.nodes[nc.Name]; n != nil && test.Match(slices.Sorted(slices.Values(n.active()))) {
			return nc.Name
		}
	}
	return first
}

// featureActive reports whether the feature is active on some node:
// Slurm's batch host search reads its list of active features, and a
// --batch naming any other runs on the job's first node.
func (c *Controller) featureActive(name string) bool {
	for _, n := range c.nodes {
		if slices.Contains(n.active(), name) {
			return true
		}
	}
	return false
}

// batchAlloc is what r holds on its batch host (its first node when the
// host is not one of its nodes); r has nodes.
func batchAlloc(r *jobRecord) api.NodeAllocation {
	if i := slices.IndexFunc(r.St.Alloc, func(a api.NodeAllocation) bool { return a.Node == r.St.BatchHost }); i >= 0 {
		return r.St.Alloc[i]
	}
	return r.St.Alloc[0]
}
