package supervisor

import (
	"context"
	"time"

	"github.com/loamhpc/loam/noded/step"
	"github.com/loamhpc/loam/noded/usage"
	"github.com/loamhpc/loam/pkg/api"
)

// stepRecordWait bounds how long a job's end waits for the step
// processes still running here to record what their killed tasks used:
// they only reap them and write a file.
const stepRecordWait = 2 * time.Second

// usage is what the job used on this node, for its end event: the batch
// script's reaped rusage and the job cgroup's memory peak (batch host
// only), and, as a fallback, the usage its steps' processes left in their
// directories that the node daemon did not send as a step-usage event of
// its own (a step still ending when the job was killed, or one that ended
// while the daemon was down). Called once the job's processes were
// killed; a job without steps reads its directory once, as before.
func (s *Supervisor) usage() *api.JobUsage {
	u := &api.JobUsage{}
	if b, ok := s.job.(*batchJob); ok && b.reaped() {
		n := api.NodeUsage{Node: s.launch.Node, Tasks: []api.TaskUsage{usage.FromState(0, b.cmd.ProcessState)}}
		if s.group != nil {
			n.MemPeak = usage.MemPeak(s.group.Name())
		}
		u.Batch = &n
	}
	steps, unrecorded, err := usage.ScanSteps(s.dir)
	if len(unrecorded) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), stepRecordWait)
		step.AwaitExit(ctx, unrecorded)
		cancel()
		steps, _, err = usage.ScanSteps(s.dir)
	}
	if err != nil {
		s.log.WithError(err).Warn("collect step usage")
	}
	u.Steps = capSteps(steps, api.MaxEventTasks)
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
