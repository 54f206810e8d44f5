package sim

import "github.com/loamhpc/loam/pkg/sched"

// neverRuns are the pending reasons that say a job can never run on the
// replayed cluster as configured: its shape fits no node or exceeds the
// partition, its limit exceeds MaxTime, its account may not use the
// partition. loam-ctld refuses such a submission at once (R1), so the
// replay refuses the job at its first pass and leaves it out of the delay
// metrics, rather than counting it as starved for every policy alike. The
// simulated nodes never go down, so none of these can change.
var neverRuns = map[sched.Reason]bool{
	sched.ReasonPartitionConfig:    true,
	sched.ReasonPartitionNodeLimit: true,
	sched.ReasonPartitionTimeLimit: true,
	sched.ReasonBadConstraints:     true,
	sched.ReasonAccountNotAllowed:  true,
	sched.ReasonInvalidAccount:     true,
}

// refuseNeverRunnable takes out of the queue the pending jobs of p whose
// reason is one of neverRuns.
func (s *simulator) refuseNeverRunnable(p *sched.Plan) error {
	for _, pd := range p.Pending {
		if !neverRuns[pd.Reason] {
			continue
		}
		i, ok := s.byID[pd.Job]
		if !ok || s.jobs[i].done || s.jobs[i].running {
			continue
		}
		j := &s.jobs[i]
		if err := s.cl.Cancel(j.Spec.ID); err != nil {
			return err
		}
		s.m.cancelled(j)
		j.done, j.state, j.end, j.refused = true, "REFUSED", s.now, pd.Reason
		s.log.line(s.now, "refuse job=%d reason=%s", j.Spec.ID, pd.Reason)
	}
	return nil
}
