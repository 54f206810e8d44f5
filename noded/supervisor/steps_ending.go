package supervisor

import (
	"path/filepath"

	"github.com/loamhpc/loam/noded/step"
	"github.com/loamhpc/loam/pkg/api"
)

// announceSteps has each running step of the job print slurmstepd's
// "*** STEP J.S ON N CANCELLED AT T[ DUE TO ...] ***" and tell its srun
// that the step was aborted, before the job's processes are signalled:
// as every slurmstepd of a job ending for any reason (scancel, time
// limit, preemption, requeue) does.
func (s *Supervisor) announceSteps(reason api.TerminateReason) {
	for dir, err := range step.AnnounceJobEnd(s.dir, reason) {
		s.log.WithError(err).WithField("step", filepath.Base(dir)).Warn("announce the job's end to a step")
	}
}
