package command

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// stepLister is a controller that lists steps (*client.Client).
type stepLister interface {
	Steps(ctx context.Context, q *api.StepQuery) (*api.StepsResponse, error)
}

// listSteps returns the running steps, srun's and the batch scripts', as
// squeue -s shows them, when the controller lists steps; ok is false when
// it does not (squeue then lists the batch steps of the running jobs).
func listSteps(ctx context.Context, c Controller, now int64) (steps []step, ok bool, err error) {
	sl, ok := c.(stepLister)
	if !ok {
		return nil, false, nil
	}
	resp, err := sl.Steps(ctx, &api.StepQuery{})
	if err != nil {
		return nil, true, err
	}
	for i := range resp.Steps {
		s := &resp.Steps[i]
		j := &api.Job{JobID: s.JobID, ArrayJobID: s.ArrayJobID, ArrayTaskID: s.ArrayTaskID, Partition: s.Partition,
			UserName: s.UserName, UserID: s.UserID, StartTime: s.StartTime, BatchHost: s.Nodes, JobState: s.State}
		steps = append(steps, step{j: j, id: s.StepID, name: s.Name, now: now, tasks: s.Tasks, cpus: s.CPUs,
			tres: s.TRESPerNode, tresStep: s.TRESPerStep, tresTask: s.TRESPerTask})
	}
	return steps, true, nil
}
