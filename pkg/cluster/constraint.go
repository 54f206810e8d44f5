package cluster

import (
	"fmt"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/sched"
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
