package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// stepRetryPoll is how often srun asks whether a job it cannot start a
// step in (the controller answers "Requested operation is presently
// disabled": the job is suspended) has been resumed.
var stepRetryPoll = time.Second

// stepRetryWait is the longest srun waits between two requests for a step
// whose creation is disabled: Slurm's srun waits 60 s (at least its
// SlurmctldTimeout, at most 300 s) plus its pid modulo 10. Loam's srun
// asks again as soon as the job is resumed.
func stepRetryWait() time.Duration {
	return time.Duration(60+os.Getpid()%10) * time.Second
}

// stepRetryable reports that the controller refused a step only for now.
func stepRetryable(err error) bool {
	var ae *api.Error
	return errors.As(err, &ae) && ae.Code == api.CodeDisabled || stepBusy(err)
}

// retryStep waits for a job whose step creation is disabled to be resumed
// and says, as Slurm's srun does, that it asks again (tries is how many
// times it has already). A signal while it waits gives the step up; the
// answer is then srun's exit status (0: ask again).
func (r *srunRun) retryStep(ctx context.Context, tries int, err error) int {
	if stepBusy(err) {
		return r.retryBusyStep(ctx, tries, err) // srun_busy.go
	}
	if sig := r.awaitResume(ctx); sig != 0 {
		r.w.raw(fmt.Sprintf("srun: Cancelled pending job step with signal %d\n", sig))
		r.w.errf("Unable to create step for job %d: %s", r.jobID, api.CodeAlreadyDone.Text())
		return 1
	}
	still := "temporarily"
	if tries > 0 {
		still = "still"
	}
	r.w.raw(fmt.Sprintf("srun: Job %d step creation %s disabled, retrying (%s)\n", r.jobID, still, errText(err)))
	return 0
}

// awaitResume polls the job until it is no longer suspended or
// stepRetryWait passed; it returns the number of a signal that came first
// (SIGWINCH aside), else 0.
func (r *srunRun) awaitResume(ctx context.Context) int {
	deadline := time.Now().Add(stepRetryWait())
	tick := time.NewTicker(stepRetryPoll)
	defer tick.Stop()
	for {
		al, err := r.c.WaitAllocation(ctx, &api.AllocationWaitRequest{JobID: r.jobID})
		if err != nil || al.State != job.Suspended || !time.Now().Before(deadline) {
			return 0
		}
		select {
		case sig := <-r.sigs:
			if n, ok := sig.(syscall.Signal); ok && sig != sigWINCH {
				return int(n)
			}
		case <-tick.C:
		case <-ctx.Done():
			return 0
		}
	}
}
