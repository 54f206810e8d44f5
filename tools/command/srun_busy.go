package command

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// A step whose CPUs, memory or GPUs other steps of the job hold is
// refused for now ("Requested nodes are busy"): srun says once, as
// Slurm's srun does, that step creation is temporarily disabled, asks
// again until the others let go, then says "Step created for job N".
// With --immediate it gives up at once.

// stepBusyPoll is how often srun asks again for a step whose nodes are
// busy.
var stepBusyPoll = 200 * time.Millisecond

// stepBusy reports that the controller refused a step because the job's
// other steps hold what it needs.
func stepBusy(err error) bool {
	var ae *api.Error
	return errors.As(err, &ae) && ae.Code == api.CodeNodesBusy
}

// retryBusyStep waits before srun asks again for a step whose nodes are
// busy (tries is how many times it has already); the answer is srun's exit
// status (0: ask again).
func (r *srunRun) retryBusyStep(ctx context.Context, tries int, err error) int {
	if r.res.Step.Immediate != nil {
		r.w.errf("Unable to create step for job %d: %s", r.jobID, errText(err))
		return 1
	}
	if tries == 0 {
		r.w.raw(fmt.Sprintf("srun: Job %d step creation temporarily disabled, retrying (%s)\n", r.jobID, errText(err)))
	}
	if sig := r.awaitBusy(ctx); sig != 0 {
		r.w.raw(fmt.Sprintf("srun: Cancelled pending job step with signal %d\n", sig))
		r.w.errf("Unable to create step for job %d: %s", r.jobID, api.CodeAlreadyDone.Text())
		return 1
	}
	return 0
}

// awaitBusy waits stepBusyPoll; it returns the number of a signal that
// came first (SIGWINCH aside), else 0.
func (r *srunRun) awaitBusy(ctx context.Context) int {
	t := time.NewTimer(stepBusyPoll)
	defer t.Stop()
	for {
		select {
		case sig := <-r.sigs:
			if n, ok := sig.(syscall.Signal); ok && sig != sigWINCH {
				return int(n)
			}
		case <-t.C:
			return 0
		case <-ctx.Done():
			return 0
		}
	}
}
