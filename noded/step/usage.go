package step

import (
	"os"

	"github.com/loamhpc/loam/noded/usage"
	"github.com/loamhpc/loam/pkg/api"
)

// recordUsage writes what the step's tasks on this node used (their
// reaped rusage and the step cgroup's memory peak) into the step's
// directory, where the job's supervisor collects it for the controller
// at the job's end (package usage).
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
