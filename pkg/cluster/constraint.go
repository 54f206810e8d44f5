package cluster

import (
	"fmt"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// shapeConstraint puts -C into s: a plain AND list as Features, anything
// else parsed as Constraint. Counts need at least as many nodes as they
// add up to: without -N the peer runs -C "[gpu*2&cpu*1]" on 3 nodes.
func shapeConstraint(s *sched.Shape, req *job.Request) error {
	if req.Constraint == "" {
		return nil
	}
	if req.Features != nil {
		s.Features = req.Features
		return nil
	}
	c, err := job.ParseConstraint(req.Constraint)
	if err != nil {
		return fmt.Errorf("constraint %q: %w", req.Constraint, err)
	}
	s.Constraint = c
	s.Nodes = max(s.Nodes, c.MinNodes()) // before -N's maximum is read
	return nil
}

// preferredShape is req's shape with --prefer in place of -C, which the
// scheduler tries first (sched/prefer.go); nil without --prefer. Slurm
// tests the preferred list instead of -C, not beside it: the peer runs
// -C cpu --prefer=gpu on a gpu node. A --prefer that does not parse
// (admission refuses it; an old record may hold one) is no preference.
func preferredShape(req *job.Request, cfg *slurmconf.Config, part *slurmconf.Partition) *sched.Shape {
	if req.Prefer == "" {
		return nil
	}
	if _, err := job.ParsePrefer(req.Prefer); err != nil {
		return nil
	}
	r := *req
	r.Constraint, r.Features, r.Prefer = req.Prefer, job.SimpleFeatures(req.Prefer), ""
	s, err := ShapeOf(&r, cfg, part)
	if err != nil {
		return nil
	}
	return &s
}
