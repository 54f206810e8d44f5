package supervisor

import (
	"github.com/loamhpc/loam/noded/usage"
	"github.com/loamhpc/loam/pkg/api"
)

// usage is what the job used on this node, for its end event: the batch
// script's reaped rusage and the job cgroup's memory peak (batch host
// only), and the usage its steps' processes left in their directories.
func (s *Supervisor) usage() *api.JobUsage {
	u := &api.JobUsage{}
	if b, ok := s.job.(*batchJob); ok && b.reaped() {
		n := api.NodeUsage{Node: s.launch.Node, Tasks: []api.TaskUsage{usage.FromState(0, b.cmd.ProcessState)}}
		if s.group != nil {
			n.MemPeak = usage.MemPeak(s.group.Name())
		}
		u.Batch = &n
	}
	steps, err := usage.CollectSteps(s.dir)
	if err != nil {
		s.log.WithError(err).Warn("collect step usage")
	}
	u.Steps = capSteps(steps, maxEventTasks)
	if left := len(steps) - len(u.Steps); left > 0 {
		s.log.WithField("steps_left_out", left).Warn("too many step tasks to report: later steps unmeasured")
	}
	if u.Batch == nil && len(u.Steps) == 0 {
		return nil
	}
	return u
}

// reaped reports whether the batch script was reaped (its rusage known).
func (b *batchJob) reaped() bool {
	select {
	case <-b.done:
		return true
	default:
		return false
	}
}

// maxEventTasks bounds the task records one end event carries, so that
// a batch of events (up to 500) stays well within a request's 8 MiB
// limit: about 70 bytes a task, 9 KiB an event.
const maxEventTasks = 128

// capSteps keeps the steps, in order, whose tasks fit in max records.
func capSteps(steps []api.StepNodeUsage, max int) []api.StepNodeUsage {
	n := 0
	for i, st := range steps {
		if n += len(st.Usage.Tasks); n > max {
			return steps[:i]
		}
	}
	return steps
}
