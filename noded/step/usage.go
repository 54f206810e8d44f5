package step

import (
	"context"
	"os"

	"github.com/loamhpc/loam/noded/usage"
	"github.com/loamhpc/loam/pkg/api"
)

// recordUsage writes what the step's tasks on this node used (their
// reaped rusage and the step cgroup's memory peak) into the step's
// directory. The node daemon, watching this process, sends it to the
// controller when the process exits; the job's supervisor takes it into
// the job's end event when that did not happen (package usage). A step
// killed with its job records too: its tasks' rusage is read when they
// are reaped after the kill, and the supervisor waits for it
// (AwaitExit).
func (p *proc) recordUsage() {
	n := api.NodeUsage{Node: p.node.Node, Tasks: make([]api.TaskUsage, 0, len(p.tasks))}
	for _, t := range p.tasks {
		var ps *os.ProcessState
		if t.cmd != nil {
			ps = t.cmd.ProcessState
		}
		n.Tasks = append(n.Tasks, usage.FromState(t.global, ps))
	}
	if p.group != nil {
		n.MemPeak = usage.MemPeak(p.group.Name())
	}
	if err := usage.WriteStep(p.dir, n); err != nil {
		p.log.WithError(err).Warn("record step usage")
	}
}

// Process returns the pid of the step process of the step in dir (Dir);
// ErrNoProcess when none runs it.
func Process(dir string) (int, error) { return findProcess("/proc", dir) }

// AwaitExit waits until the step processes of the steps in dirs have
// exited, or ctx ends: a job's supervisor, having killed the job, lets
// them record what their tasks used before it collects it.
func AwaitExit(ctx context.Context, dirs []string) {
	for _, dir := range dirs {
		if pid, err := Process(dir); err == nil {
			_, _ = usage.WaitExit(ctx, pid)
		}
	}
}
