package command

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// suspendClient is what scontrol suspend and resume need of the
// controller; *client.Client has it.
type suspendClient interface {
	Suspend(ctx context.Context, req *api.SuspendRequest) (*api.JobResults, error)
}

// suspend handles "suspend JOBLIST..." and "resume JOBLIST...": each
// argument a comma-separated list, each failure printed "for job" the
// job, as Slurm 22.05's scontrol does; suspending a suspended job is no
// error.
func (s *scontrol) suspend(argv []string, resume bool) {
	c, ok := s.jobListController(argv)
	if !ok {
		return
	}
	sc, ok := c.(suspendClient)
	if !ok {
		s.fail("scontrol: error: this controller offers no suspend or resume\n")
		return
	}
	for _, arg := range argv[1:] {
		s.sendJobList(arg, func(ids []string) (*api.JobResults, error) {
			return sc.Suspend(s.ctx, &api.SuspendRequest{JobIDs: ids, Resume: resume})
		})
	}
}
