package main

import (
	"fmt"
	"io"

	"github.com/loamhpc/loam/pkg/estimate"
	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/sim"
)

// newStudy scores start estimates during one policy's replay (--estimates).
func newStudy(o sim.Options) *sim.EstimateStudy {
	return sim.NewEstimateStudy(o.Config, o.Nodes, estimate.Config{})
}

// writeStudies prints the estimate scores of the policies that had a
// study.
func writeStudies(w io.Writer, policies []sched.Policy, studies []*sim.EstimateStudy) error {
	var names []string
	var reps []sim.EstimateReport
	for i, st := range studies {
		if st != nil {
			names = append(names, policyName(policies[i]))
			reps = append(reps, st.Report())
		}
	}
	if len(reps) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nstart estimates: actual - predicted start; limit-only is squeue --start's (time limits), history is pkg/estimate's")
	return sim.WriteEstimateTable(w, names, reps)
}
