package api

import "slices"

// Resource usage of steps, measured by the node daemons where the tasks
// run (Slurm's jobacct_gather): at the end of every step for sacct, and
// on demand for the running steps (sstat).

// PathStepStat takes StepStatRequest and answers StepStatResponse: the
// live usage of running steps (sstat).
const PathStepStat = "/v1/steps/stat"

// PathNodedStepUsage is the node daemon's: it takes NodedUsageRequest and
// answers NodeUsage, the live usage of a step on that node.
const PathNodedStepUsage = "/v1/noded/steps/usage"

// TaskUsage is one task's use, CPU times in microseconds and sizes in
// bytes. At a step's end they come from wait4's rusage of the task (its
// waited-for descendants included); live ones from /proc.
type TaskUsage struct {
	// Task is the task's global id (0 for the batch step).
	Task     int   `json:"task"`
	UserUsec int64 `json:"user_usec"`
	SysUsec  int64 `json:"sys_usec"`
	// MaxRSS is the task's peak resident set size (ru_maxrss: the
	// largest of its processes').
	MaxRSS int64 `json:"max_rss"`
	// MaxVM is the task's virtual size; 0 where it was not measured (at
	// a step's end: the processes are gone).
	MaxVM int64 `json:"max_vm,omitempty"`
	// Pages counts the task's major page faults (Slurm's pages).
	Pages int64 `json:"pages,omitempty"`
	// Pids are the task's processes (live usage only).
	Pids []int `json:"pids,omitempty"`
}

// CPUUsec is the task's user plus system CPU time.
func (t TaskUsage) CPUUsec() int64 { return t.UserUsec + t.SysUsec }

// NodeUsage is one node's share of a step.
type NodeUsage struct {
	Node string `json:"node"`
	// MemPeak is the peak memory of the step's cgroup on the node in
	// bytes (cgroup v1 memory.max_usage_in_bytes, v2 memory.peak; page
	// cache included); 0 when unknown.
	MemPeak int64       `json:"mem_peak,omitempty"`
	Tasks   []TaskUsage `json:"tasks"`
}

// StepUsage is a step's use: its nodes' reports.
type StepUsage struct {
	Nodes []NodeUsage `json:"nodes"`
}

// Add puts node n's report in u, replacing an earlier one of the same
// node (a replayed report).
func (u *StepUsage) Add(n NodeUsage) {
	for i := range u.Nodes {
		if u.Nodes[i].Node == n.Node {
			u.Nodes[i] = n
			return
		}
	}
	u.Nodes = append(u.Nodes, n)
}

// StepNodeUsage is a node's report of one numbered step.
type StepNodeUsage struct {
	StepID uint32    `json:"step_id"`
	Usage  NodeUsage `json:"usage"`
}

// JobUsage rides on a job's end event (JobEvent.Usage): the batch step's
// use (on the batch host) and that of the job's numbered steps that ran
// on the node.
type JobUsage struct {
	Batch *NodeUsage      `json:"batch,omitempty"`
	Steps []StepNodeUsage `json:"steps,omitempty"`
}

// UsageSummary is a step's use as sacct and sstat print it. Node fields
// name the node, task fields the global task id.
type UsageSummary struct {
	NTasks                 int
	UserUsec, SysUsec      int64
	MaxRSS, AveRSS         int64
	MaxRSSNode             string
	MaxRSSTask             int
	MaxVM, AveVM           int64
	MaxVMNode              string
	MaxVMTask              int
	MinCPUUsec, AveCPUUsec int64
	MaxCPUUsec             int64
	MinCPUNode, MaxCPUNode string
	MinCPUTask, MaxCPUTask int
	MinRSS                 int64
	MinRSSNode             string
	MinRSSTask             int
	MinVM                  int64
	MinVMNode              string
	MinVMTask              int
	// Major page faults: the most and fewest of a task, and the sum.
	MaxPages, MinPages   int64
	MaxPagesNode         string
	MinPagesNode         string
	MaxPagesTask         int
	MinPagesTask         int
	TotalPages, AvePages int64
	// FirstNode is the step's first node by name (Slurm's node of a
	// figure that is the same everywhere, as the energy of a cluster
	// without an energy plugin).
	FirstNode         string
	TotalRSS, TotalVM int64
	// VMMeasured: some task's virtual size was measured.
	VMMeasured bool
}

// TotalUsec is user plus system CPU time.
func (s UsageSummary) TotalUsec() int64 { return s.UserUsec + s.SysUsec }

// Summary folds the tasks of every node: sums, maxima and minima with
// the node and task that had them (the first in node order on ties), and
// averages over the tasks. ok is false when no task was measured.
func (u *StepUsage) Summary() (s UsageSummary, ok bool) {
	for _, n := range u.Nodes {
		tasks := slices.Clone(n.Tasks)
		slices.SortFunc(tasks, func(a, b TaskUsage) int { return a.Task - b.Task })
		for _, t := range tasks {
			s.fold(n.Node, t)
		}
	}
	if s.NTasks == 0 {
		return UsageSummary{}, false
	}
	n := int64(s.NTasks)
	s.AveRSS, s.AveVM, s.AveCPUUsec = s.TotalRSS/n, s.TotalVM/n, s.TotalUsec()/n
	s.AvePages = s.TotalPages / n
	return s, true
}

func (s *UsageSummary) fold(node string, t TaskUsage) {
	first := s.NTasks == 0
	s.NTasks++
	if first || node < s.FirstNode {
		s.FirstNode = node
	}
	s.UserUsec += t.UserUsec
	s.SysUsec += t.SysUsec
	s.TotalRSS += t.MaxRSS
	s.TotalVM += t.MaxVM
	cpu := t.CPUUsec()
	if first || t.MaxRSS > s.MaxRSS {
		s.MaxRSS, s.MaxRSSNode, s.MaxRSSTask = t.MaxRSS, node, t.Task
	}
	if first || t.MaxRSS < s.MinRSS {
		s.MinRSS, s.MinRSSNode, s.MinRSSTask = t.MaxRSS, node, t.Task
	}
	if t.MaxVM > 0 {
		s.VMMeasured = true
	}
	if first || t.MaxVM > s.MaxVM {
		s.MaxVM, s.MaxVMNode, s.MaxVMTask = t.MaxVM, node, t.Task
	}
	if first || t.MaxVM < s.MinVM {
		s.MinVM, s.MinVMNode, s.MinVMTask = t.MaxVM, node, t.Task
	}
	s.TotalPages += t.Pages
	if first || t.Pages > s.MaxPages {
		s.MaxPages, s.MaxPagesNode, s.MaxPagesTask = t.Pages, node, t.Task
	}
	if first || t.Pages < s.MinPages {
		s.MinPages, s.MinPagesNode, s.MinPagesTask = t.Pages, node, t.Task
	}
	if first || cpu > s.MaxCPUUsec {
		s.MaxCPUUsec, s.MaxCPUNode, s.MaxCPUTask = cpu, node, t.Task
	}
	if first || cpu < s.MinCPUUsec {
		s.MinCPUUsec, s.MinCPUNode, s.MinCPUTask = cpu, node, t.Task
	}
}

// StepStatRequest asks for the live usage of a job's running steps
// (sstat -j JOB[.STEP]). Step is "" for the default (the lowest numbered
// step, or every running step with All), "batch", or a step number.
type StepStatRequest struct {
	JobID uint32 `json:"job_id"`
	Step  string `json:"step,omitempty"`
	All   bool   `json:"all,omitempty"`
}

// StepStat is one running step's live usage.
type StepStat struct {
	JobID  uint32    `json:"job_id"`
	StepID string    `json:"step_id"` // "0", "batch"
	Nodes  string    `json:"nodes"`
	Tasks  int       `json:"tasks"`
	Usage  StepUsage `json:"usage"`
}

// StepStatResponse answers StepStatRequest. NoSteps says the job exists
// but none of the steps asked for runs (sstat's "No steps running").
type StepStatResponse struct {
	Steps   []StepStat `json:"steps"`
	NoSteps bool       `json:"no_steps,omitempty"`
}

// NodedUsageRequest asks a node daemon for the live usage of a step of a
// job it runs: a numbered step, or the batch step when Step is nil.
type NodedUsageRequest struct {
	JobID uint32  `json:"job_id"`
	Step  *uint32 `json:"step,omitempty"`
}

// EventStepUsage is a node daemon's event (JobEvent.Kind) carrying what
// one numbered step used on the node (Usage.Steps, one entry), sent when
// the step ends there rather than with the job's end, so that sacct shows
// a long job's finished steps while it runs. It goes through the same
// numbered, acknowledged outbox as the job's start and end.
const EventStepUsage JobEventKind = "step_usage"

// MaxEventTasks bounds the task records one event carries (a step's
// share of one node, or the steps an end event still carries): about 70
// bytes a task, 70 KiB an event. The node daemon's batches of events are
// bounded by task records as well, so that a request stays well within
// MaxRequestBytes.
const MaxEventTasks = 1024
