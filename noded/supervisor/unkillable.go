package supervisor

import (
	"context"
	"errors"
	"syscall"
	"time"

	"github.com/loamhpc/loam/noded/unkillable"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/isolation"
)

// killAll ends every process of the job; processes that outlive the
// bound mark the job's kill failed, and are not waited for again.
func (s *Supervisor) killAll() error {
	if s.killFailed {
		return nil
	}
	err := s.job.KillAll()
	if errors.Is(err, isolation.ErrUnkillable) {
		s.killFailed = true
	}
	return err
}

// exitStatus is the batch script's wait status: 0 when it never exited
// (it is among the processes that outlived SIGKILL).
func (s *Supervisor) exitStatus() syscall.WaitStatus {
	select {
	case <-s.job.Done():
		return s.job.Status()
	default:
		return 0
	}
}

// stepID is the step slurmstepd would name: the batch script, or the
// allocation of a node that runs none.
func (s *Supervisor) stepID() uint32 {
	if s.launch.Request.Batch {
		return unkillable.BatchStep
	}
	return unkillable.ExternStep
}

// unkillable does what slurmstepd's terminate monitor does once the
// job's processes outlived SIGKILL: it runs UnkillableStepProgram
// (answering the daemon meanwhile), writes slurmstepd's line to the job's
// error file, and marks the result so the controller drains the node
// ("Kill task failed"). The job ends all the same; its cgroup, still
// holding the processes, is left in place.
func (s *Supervisor) unkillable(res *api.JobEvent) {
	id, node := s.launch.Request.JobID, s.launch.Node
	s.log.WithField("group", s.group.Name()).Error("processes survive SIGKILL: draining the node (Kill task failed)")
	if u := s.launch.Unkillable; u != nil && u.Program != "" {
		s.aside(func() {
			err := unkillable.Run(context.Background(), u.Program, id, s.stepID(), unkillable.ProgramTimeout)
			if err != nil {
				s.log.WithError(err).Warn("UnkillableStepProgram")
			}
		})
	}
	s.job.Announce(unkillable.Line(node, id, s.stepID(), time.Now()))
	res.KillFailed = true
	res.Drain = unkillable.DrainReason
}
