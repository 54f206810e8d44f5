package command

import (
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// prologFailedStatus is srun's exit status when a node's Prolog failed:
// Slurm's srun exits with ESLURMD_PROLOG_FAILED (4022) cut to a byte.
const prologFailedStatus = 4022 & 0xff

// prologFailed reports a step refused because the job's node Prolog
// failed, with the peer's lines: the allocating client's notice of the
// failure (salloc prints it instead when it holds the allocation), the
// launch failure, then the abort. ae.Detail is the controller's "Task
// launch for StepId=J.S failed on node N: Job prolog failed" line.
func (r *srunRun) prologFailed(ae *api.Error) int {
	if r.allocator != nil {
		_, rest, _ := strings.Cut(ae.Detail, " failed on node ")
		node, _, _ := strings.Cut(rest, ":")
		r.w.raw("srun: Prolog failure on node " + node + "\n")
	}
	r.w.errf("%s", ae.Detail)
	r.w.errf("Application launch failed: %s", ae.Message)
	r.w.raw("srun: Job step aborted\n")
	return prologFailedStatus
}
