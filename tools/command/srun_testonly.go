package command

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// testOnly is srun --test-only: the controller checks the allocation srun
// would ask for and estimates its start, which srun prints as sbatch
// --test-only does ("srun: Job N to start at ... in partition P"; -Q
// prints nothing). No job is made and nothing runs; inside an allocation
// too, as the peer's srun in salloc estimates a new job.
func (r *srunRun) testOnly(ctx context.Context) int {
	req := r.res.Request
	req.WorkDir, req.SubmitDir, req.SubmitHost, req.AllocSID = r.env.Cwd, r.env.Cwd, r.env.Host, r.env.Sid
	in := &api.AllocateRequest{Job: req, SubmitHost: r.env.Host, TestOnly: true}
	resp, err := r.c.Allocate(ctx, in)
	if err != nil {
		return submitFailed(r.w, true, r.res.Step.Verbose, err, 1)
	}
	if t := resp.TestOnly; t != nil && !r.res.Step.Quiet {
		printTestOnly(r.env, r.w, "srun", t)
	}
	return 0
}
