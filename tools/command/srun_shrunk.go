package command

import (
	"context"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// shrunkAllocation answers a step refused inside a job that scontrol
// update NumNodes shrank after its SLURM_JOB_NUM_NODES was set: Slurm's
// srun looks the allocation up, says the variable conflicts with it, and
// runs on the nodes left. Loam's srun trusts the variable and looks only
// once a step is refused; it reports whether the request changed. Only a
// node count from the environment is corrected, never -N.
func (r *srunRun) shrunkAllocation(ctx context.Context) bool {
	q, st := &r.res.Request, &r.res.Step
	if !q.NodesSet || st.NodesOnCommandLine || r.allocator != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	al, err := r.c.WaitAllocation(ctx, &api.AllocationWaitRequest{JobID: r.jobID})
	if err != nil || !al.Ready || len(al.Nodes) == 0 || len(al.Nodes) >= q.MinNodes {
		return false
	}
	r.w.errf("SLURM_JOB_NUM_NODES environment variable conflicts with allocated node count (%d != %d).", q.MinNodes, len(al.Nodes))
	q.MinNodes, q.MaxNodes, r.jobNodes = len(al.Nodes), len(al.Nodes), len(al.Nodes)
	return true
}
