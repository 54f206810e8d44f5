package controller

import (
	"slices"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// A job's --prefer is tried in place of -C first, -C alone when no node
// set with the preferred features can start it now (pkg/sched). Slurm
// then shows, once the job started, the list it ran with as Features=
// and no Prefer= (the peer shows -C cpu --prefer=gpu running on gpu001
// as Features=gpu), and hands that list to the prolog as
// SLURM_JOB_CONSTRAINTS (features_use).

// featuresUsed is the list a started job ran with: --prefer when its
// nodes pass it, else -C. The scheduler tries --prefer first, so nodes
// that pass it are nodes it started the job on.
func featuresUsed(conf *slurmconf.Config, q *job.Request, alloc []api.NodeAllocation) string {
	if q.Prefer == "" || len(alloc) == 0 {
		return q.Constraint
	}
	p, err := job.ParsePrefer(q.Prefer)
	if err != nil {
		return q.Constraint
	}
	features := make([][]string, len(alloc))
	for i, a := range alloc {
		if nc, ok := conf.Node(a.Node); ok {
			features[i] = sortedFeatures(nc.Features)
		}
	}
	for alt := range p.Alternatives() {
		if nodesPass(p, alt, features) {
			return q.Prefer
		}
	}
	return q.Constraint
}

// nodesPass reports whether nodes with these features (sorted) satisfy
// option alt of c: each passes its per-node test, and each count has its
// nodes.
func nodesPass(c *job.Constraint, alt int, features [][]string) bool {
	test := c.NodeTest(alt)
	for _, f := range features {
		if test != nil && !test.Match(f) {
			return false
		}
	}
	for _, fc := range c.Counts(alt) {
		n := 0
		for _, f := range features {
			if fc.Test.Match(f) {
				n++
			}
		}
		if n < fc.Nodes {
			return false
		}
	}
	return true
}

func sortedFeatures(in []string) []string {
	out := append([]string(nil), in...)
	slices.Sort(out)
	return out
}

// showFeatures sets show job's Features= and Prefer=: -C and --prefer
// as given while the job pends, the list it ran with afterwards.
func (c *Controller) showFeatures(j *api.Job, r *jobRecord) {
	q := r.Req
	j.Features, j.Prefer = q.Constraint, ""
	switch {
	case q.Prefer == "":
	case r.pending():
		j.Prefer = q.Prefer
	default:
		j.Features = featuresUsed(c.confNow().conf, q, r.St.Alloc)
	}
}

// testedFeatures is the plain AND list of features submission tests the
// nodes with: --prefer's in place of -C's when the job has one, as
// slurmctld tests a new job (set_job_features_use; the peer takes -C cpu
// --prefer=gpu --gpus=1 with no GPU on its cpu nodes).
func testedFeatures(r *job.Request) []string {
	if r.Prefer != "" {
		return job.SimpleFeatures(r.Prefer)
	}
	return r.Features
}
