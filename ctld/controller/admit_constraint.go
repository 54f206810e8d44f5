package controller

import (
	"errors"
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
//
// --prefer is checked the same way after -C, in its own words, and then
// stands in for -C in the node test: slurmctld tests a new job with the
// preferred list when it has one (set_job_features_use), so the peer
// takes -C "gpu*99" --prefer=gpu but refuses --prefer="gpu&cpu".
//
// --batch is checked against each list as it is read (job.BatchSubset),
// and refused when there is neither: the peer answers --batch=gpu alone
// "Job --batch option is invalid or not a subset of --constraints".
func admitConstraint(cs *confState, a *admitted) *api.Error {
	r := a.req
	var c *job.Constraint
	if r.Constraint != "" {
		var aerr *api.Error
		if c, aerr = knownConstraint(cs, r.Constraint, r.BatchFeatures); aerr != nil {
			return aerr
		}
	}
	if r.Prefer != "" {
		p, aerr := knownPrefer(cs, r.Prefer, r.BatchFeatures)
		if aerr != nil {
			return aerr
		}
		c = p
	}
	if r.BatchFeatures != nil && r.Constraint == "" && r.Prefer == "" {
		return api.NewError(api.CodeBatchConstraint)
	}
	if c == nil {
		return nil
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
	// Slurm's line names what the nodes -C allows lack (the peer:
	// --mincpus=70 -C 'gpu|cpu' "CPU count per node can not be
	// satisfied"), and none when no node passes -C (-c 65 -C 'gpu&cpu').
	excluded, _ := namedNodes(cs, r) // admitShape refuses bad names
	return api.Errorf(api.CodeNodeConfigUnavailable, "%s", shapeMessage(cs, a, excluded, func(nc *slurmconf.Node) bool {
		features := slices.Sorted(slices.Values(nc.Features))
		for alt := range c.Alternatives() {
			if test := c.NodeTest(alt); test == nil || test.Match(features) {
				return true
			}
		}
		return false
	}))
}

// knownConstraint parses -C and checks that every feature it names is on
// some node of the cluster, and that the job's --batch (batch, nil when
// not given) goes with it: Slurm's build_feature_list, what submit and
// scontrol update both check.
func knownConstraint(cs *confState, s string, batch *string) (*job.Constraint, *api.Error) {
	c, err := job.ParseConstraintBatch(s, batch, cs.featureKnown)
	switch {
	case errors.Is(err, job.ErrBatchConstraint):
		return nil, api.NewError(api.CodeBatchConstraint)
	case err != nil:
		return nil, api.NewError(api.CodeInvalidFeature)
	}
	if !namesKnown(cs, c) {
		return nil, api.NewError(api.CodeInvalidFeature)
	}
	return c, nil
}

// knownPrefer is knownConstraint for --prefer: a feature no node has and
// the list's own faults are "Invalid preferred feature specification",
// the other syntax faults "Invalid feature specification", as Slurm's
// build_feature_list words them at submit (the peer: --prefer=nosuch,
// --prefer='[gpu*2|cpu]' the first, --prefer='a&|b' the second).
func knownPrefer(cs *confState, s string, batch *string) (*job.Constraint, *api.Error) {
	c, err := job.ParsePreferBatch(s, batch, cs.featureKnown)
	switch {
	case errors.Is(err, job.ErrBatchConstraint):
		return nil, api.NewError(api.CodeBatchConstraint)
	case errors.Is(err, job.ErrInvalidPrefer):
		return nil, api.NewError(api.CodeInvalidPrefer)
	case err != nil:
		return nil, api.NewError(api.CodeInvalidFeature)
	case !namesKnown(cs, c):
		return nil, api.NewError(api.CodeInvalidPrefer)
	}
	return c, nil
}

// namesKnown reports whether every feature c names is on some node of
// the cluster.
func namesKnown(cs *confState, c *job.Constraint) bool {
	return !slices.ContainsFunc(c.Names(), func(name string) bool { return !cs.featureKnown(name) })
}

// featureKnown reports whether some node of the cluster has the feature.
func (cs *confState) featureKnown(name string) bool {
	return slices.ContainsFunc(cs.conf.Nodes, func(n slurmconf.Node) bool { return slices.Contains(n.Features, name) })
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
