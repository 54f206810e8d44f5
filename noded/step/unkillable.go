package step

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/noded/unkillable"
	"github.com/loamhpc/loam/pkg/isolation"
)

// KillFailedFile, in a step's directory, says that processes of the step
// outlived SIGKILL by UnkillableStepTimeout: the node daemon's report of
// the step then asks the controller to drain the node ("Kill task
// failed"), as slurmstepd does itself.
const KillFailedFile = "kill_failed"

// killLeftovers kills what the step's tasks left behind once they all
// ended, as slurmstepd does with the step's container; processes that
// outlive the bound make the step unkillable.
func (p *proc) killLeftovers() {
	err := p.group.Kill()
	switch {
	case errors.Is(err, isolation.ErrUnkillable):
		p.unkillable()
	case err != nil:
		p.log.WithError(err).Warn("kill leftover processes")
	}
}

// unkillable does what slurmstepd's terminate monitor does for a step
// whose processes outlived SIGKILL: it runs UnkillableStepProgram, writes
// the "*** STEP J.S STEPD TERMINATED ... ***" line to slurmstepd's
// standard error, which is the node's first task's (srun shows it), and
// leaves KillFailedFile so that the node is drained. The step then ends
// without those processes; its cgroup, still holding them, stays.
func (p *proc) unkillable() {
	p.killFailed = true
	p.log.WithField("group", p.group.Name()).Error("processes survive SIGKILL: draining the node (Kill task failed)")
	if u := p.job.Unkillable; u != nil && u.Program != "" {
		if err := unkillable.Run(context.Background(), u.Program, p.req.JobID, p.req.StepID, unkillable.ProgramTimeout); err != nil {
			p.log.WithError(err).Warn("UnkillableStepProgram")
		}
	}
	if len(p.tasks) > 0 {
		p.tasks[0].writeErr(p.out, unkillable.Line(p.node.Node, p.req.JobID, p.req.StepID, time.Now()))
	}
	if err := spool.WriteJSON(filepath.Join(p.dir, KillFailedFile), unkillable.DrainReason); err != nil {
		p.log.WithError(err).Error("record kill failure")
	}
}
