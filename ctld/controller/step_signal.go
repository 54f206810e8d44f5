package controller

import (
	"context"
	"syscall"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// signalStep carries out scancel JOB.STEP for running job r: sig 0 or
// SIGKILL cancels the step, another signal goes to its tasks only. The
// order goes to the nodes of the step's layout, not the job's, each with
// the step id; the step's own end comes from its srun, which hears how
// its tasks ended, as for any step. The caller holds c.mu.
func (c *Controller) signalStep(b *batch, r *jobRecord, step uint32, sig int) *api.Error {
	switch {
	case r.finished():
		return api.NewError(api.CodeAlreadyDone)
	case r.pending():
		return api.NewError(api.CodeInvalidJobID) // a pending job has no steps
	}
	s := c.findStep(r.ID, step)
	if s == nil || !s.running() {
		return api.NewError(api.CodeInvalidJobID)
	}
	if sig > 64 {
		return nil // no such signal: Slurm's node daemons ignore it
	}
	if sig == 0 {
		sig = int(syscall.SIGKILL)
	}
	c.queueStepSignal(b, s, sig, "", "step signal failed")
	return nil
}

// queueStepSignal has the daemons of step s's nodes, but skip's, send sig
// to its tasks once the caller's batch is done, logging a failure as fail.
func (c *Controller) queueStepSignal(b *batch, s *stepRecord, sig int, skip, fail string) {
	req := api.SignalRequest{JobID: s.JobID, Signal: sig, Step: &s.StepID}
	for _, target := range c.stepSignalTargets(s) {
		if target.node == skip {
			continue
		}
		b.sends = append(b.sends, func() {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			if _, err := c.noded.Signal(ctx, target.addr, &req); err != nil {
				c.log.WithError(err).WithField("job_id", req.JobID).WithField("step_id", s.StepID).
					WithField("node", target.node).Warn(fail)
				return
			}
			c.noteStopSignal(req.JobID, sig) // stopped.go
		})
	}
}

// stepSignalTargets are the reachable daemons of step s's nodes; one that
// does not answer is skipped (its tasks end with the job).
func (c *Controller) stepSignalTargets(s *stepRecord) []nodeTarget {
	var out []nodeTarget
	for _, sn := range s.Layout.Nodes {
		if t, ok := c.target(sn.Node); ok {
			out = append(out, t)
		}
	}
	return out
}
