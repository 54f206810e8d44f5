package command

import (
	"fmt"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// The lines srun -v prints about its step after the option block, in
// Slurm 22.05's words: the job's nodes, each node's launch, each node's
// start and each group of task ends. Slurm's plugin names stay in them
// (launch/slurm, route/default) so that scripts reading them still match.

// verbose reports whether srun runs with -v.
func (s *stepRun) verbose() bool { return s.r.res.Step.Verbose > 0 }

// launchLines prints the job line and the launch of each node.
func (s *stepRun) launchLines() {
	if !s.verbose() {
		return
	}
	nodes, cpus := s.r.jobValue("SLURM_JOB_NODELIST"), s.r.jobValue("SLURM_JOB_CPUS_PER_NODE")
	var b strings.Builder
	fmt.Fprintf(&b, "srun: jobid %d: nodes(%d):`%s', cpu counts: %s\n", s.r.jobID, s.jobNodeCount(), nodes, cpuCounts(cpus))
	b.WriteString("srun: launch/slurm: launch_p_step_launch: CpuBindType=(null type)\n")
	for _, n := range s.layout.Nodes {
		tasks := job.FormatRanges(n.TaskIDs)
		if len(n.TaskIDs) > 1 {
			tasks = "[" + tasks + "]"
		}
		fmt.Fprintf(&b, "srun: launching StepId=%s on host %s, %d tasks: %s\n", s.id, n.Node, len(n.TaskIDs), tasks)
	}
	b.WriteString("srun: route/default: init: route default plugin loaded\n")
	s.w.raw(b.String())
}

// started says node i connected: its tasks run.
func (s *stepRun) started(i int) {
	if s.verbose() {
		n := s.layout.Nodes[i]
		s.w.raw(fmt.Sprintf("srun: launch/slurm: _task_start: Node %s, %d tasks started\n", n.Node, len(n.TaskIDs)))
	}
}

// exitNotice says tasks of node i ended alike; a clean end is reported
// here as Completed, a bad one by the error line that follows.
func (s *stepRun) exitNotice(i int, e api.StepIOExit) {
	if !s.verbose() {
		return
	}
	noun := "tasks"
	if len(e.Tasks) == 1 {
		noun = "task"
	}
	s.w.raw(fmt.Sprintf("srun: launch/slurm: _task_finish: Received task exit notification for %d %s of StepId=%s (status=0x%04x).\n",
		len(e.Tasks), noun, s.id, waitStatusOf(e)))
	if e.ExitCode == (job.ExitCode{}) {
		s.w.raw(fmt.Sprintf("srun: launch/slurm: _task_finish: %s: %s: Completed\n", s.layout.Nodes[i].Node, taskList(e.Tasks)))
	}
}

// waitStatusOf is the task's end as a wait(2) status.
func waitStatusOf(e api.StepIOExit) int {
	st := e.ExitCode.Status<<8 | e.ExitCode.Signal
	if e.CoreDumped {
		st |= 0x80
	}
	return st
}

// jobValue is one of the job's SLURM_* variables: srun's own allocation's
// when it made one, else its environment's.
func (r *srunRun) jobValue(name string) string {
	for _, kv := range r.jobEnv {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	v, _ := r.env.Getenv(name)
	return v
}

// jobNodeCount is the job's node count; the step's when srun does not
// know it.
func (s *stepRun) jobNodeCount() int {
	if s.r.jobNodes > 0 {
		return s.r.jobNodes
	}
	return len(s.layout.Nodes)
}

// cpuCounts writes SLURM_JOB_CPUS_PER_NODE ("2(x2),1" or "2,1") as srun
// -v does: every count with its repetition ("2(x2),1(x1)").
func cpuCounts(perNode string) string {
	if perNode == "" {
		return ""
	}
	parts := strings.Split(perNode, ",")
	for i, p := range parts {
		if !strings.Contains(p, "(x") {
			parts[i] = p + "(x1)"
		}
	}
	return strings.Join(parts, ",")
}
