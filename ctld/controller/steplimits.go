package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// stepCountLimit refuses a job's next step (id next) once it has had
// MaxStepCount of them, as slurmctld does ("Step limit reached for this
// job").
func stepCountLimit(conf *slurmconf.Config, next uint32) *api.Error {
	if limit := conf.MaxStepCount; limit > 0 && int64(next) >= limit {
		return api.NewError(api.CodeStepLimit)
	}
	return nil
}

// stepTasksLimit refuses a step with more than MaxTasksPerNode tasks on
// any node ("Task count specification invalid"). Slurm checks this at
// step creation only: a job asking more tasks per node is accepted.
func stepTasksLimit(conf *slurmconf.Config, l *api.StepLayout) *api.Error {
	limit := conf.MaxTasksPerNode
	if limit <= 0 {
		return nil
	}
	for _, n := range l.Nodes {
		if int64(len(n.TaskIDs)) > limit {
			return api.NewError(api.CodeBadTaskCount)
		}
	}
	return nil
}
