package controller

import (
	"slices"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// What a reservation holds besides whole nodes. Features= narrows the
// nodes picked for NodeCnt=. Licenses=, CoreCnt= (and TRES=cpu=N) and
// MaxStartDelay= are read and checked as Slurm does, then refused: the
// scheduler keeps licenses and cores of a window from no one, and
// MaxStartDelay only matters to FLEX reservations, which Loam refuses.

// refuseAdvExtras answers a creation or update that asks for licenses,
// cores or a MaxStartDelay: Slurm's "Invalid license specification" for
// licenses the cluster lacks, else "not supported".
func (c *Controller) refuseAdvExtras(licenses string, cores int, maxDelay int64) *api.Error {
	switch {
	case licenses != "" && !validLicenses(c.confNow().conf, licenses):
		return api.NewError(api.CodeInvalidLicenses)
	case licenses != "":
		return api.Errorf(api.CodeNotSupported, "Loam does not reserve licenses")
	case cores > 0:
		return api.Errorf(api.CodeNotSupported, "Loam reserves whole nodes, not cores")
	case maxDelay > 0:
		return api.Errorf(api.CodeNotSupported, "Loam does not implement MaxStartDelay")
	}
	return nil
}

// advFeatureTest parses r's Features= and checks that every name is some
// node's feature; nil when r has none.
func (c *Controller) advFeatureTest(r *advResv) (*job.NodeTest, *api.Error) {
	if r.Features == "" {
		return nil, nil
	}
	expr, err := job.ParseConstraint(r.Features)
	if err != nil || expr.Alternatives() > 1 {
		return nil, api.NewError(api.CodeInvalidFeature)
	}
	for _, name := range expr.Names() {
		if !c.someNodeHas(name) {
			return nil, api.NewError(api.CodeInvalidFeature)
		}
	}
	return expr.NodeTest(0), nil
}

func (c *Controller) someNodeHas(feature string) bool {
	for _, n := range c.nodes {
		if slices.Contains(n.conf.Features, feature) {
			return true
		}
	}
	return false
}

// nodeMatches reports whether node name passes test (nil passes all).
func (c *Controller) nodeMatches(name string, test *job.NodeTest) bool {
	if test == nil {
		return true
	}
	n, ok := c.nodes[name]
	if !ok {
		return false
	}
	return test.Match(sortedFeatures(n.conf.Features))
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
