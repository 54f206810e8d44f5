package controller

import (
	"slices"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// admitConstraint checks -C as Slurm 22.05 does at submit: the syntax and
// that every feature it names is on some node of the cluster
// (build_feature_list: "Invalid feature specification", no detail), then
// that some partition's nodes can satisfy it at all: enough nodes with
// the counted features, a node passing each node's test, and -N leaving
// room for the counts (the peer refuses -C "gpu&cpu", -C "gpu*99" and
// -N1 -C "gpu*2" with "Requested node configuration is not available").
func admitConstraint(cs *confState, a *admitted) *api.Error {
	r := a.req
	if r.Constraint == "" {
		return nil
	}
	c, aerr := knownConstraint(cs, r.Constraint)
	if aerr != nil {
		return aerr
	}
	if r.NodesSet && max(r.MinNodes, r.MaxNodes) < c.MinNodes() {
		return api.NewError(api.CodeNodeConfigUnavailable)
	}
	need := perNodeNeed(r)
	for _, pn := range a.partitions {
		for alt := range c.Alternatives() {
			if satisfiable(cs, cs.parts[pn], c, alt, need) {
				return nil
			}
		}
	}
	return api.NewError(api.CodeNodeConfigUnavailable)
}

// knownConstraint parses -C and checks that every feature it names is on
// some node of the cluster, Slurm's build_feature_list: what submit and
// scontrol update both check.
func knownConstraint(cs *confState, s string) (*job.Constraint, *api.Error) {
	c, err := job.ParseConstraint(s)
	if err != nil {
		return nil, api.NewError(api.CodeInvalidFeature)
	}
	for _, name := range c.Names() {
		if !slices.ContainsFunc(cs.conf.Nodes, func(n slurmconf.Node) bool { return slices.Contains(n.Features, name) }) {
			return nil, api.NewError(api.CodeInvalidFeature)
		}
	}
	return c, nil
}

// satisfiable reports whether partition p has the nodes alternative alt
// of c needs, each able to hold a node's share of the job.
func satisfiable(cs *confState, p *slurmconf.Partition, c *job.Constraint, alt int, need nodeNeed) bool {
	test, counts := c.NodeTest(alt), c.Counts(alt)
	passing := func(t *job.NodeTest) int {
		k := 0
		for _, name := range p.Nodes {
			nc, ok := cs.conf.Node(name)
			if !ok || !need.fits(nc) {
				continue
			}
			features := slices.Sorted(slices.Values(nc.Features))
			if (test == nil || test.Match(features)) && (t == nil || t.Match(features)) {
				k++
			}
		}
		return k
	}
	if passing(nil) == 0 {
		return false
	}
	total := 0
	for _, fc := range counts {
		if passing(fc.Test) < fc.Nodes {
			return false
		}
		total += fc.Nodes
	}
	return total <= len(p.Nodes)
}
