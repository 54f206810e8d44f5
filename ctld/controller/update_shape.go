package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// updateShape applies a pending job's new size: NumNodes (min, and max
// when given, else the job's), NumTasks, CPUsPerTask, MinCPUsNode and
// memory, refusing with Slurm's words what Slurm refuses (no nodes, a
// maximum under the minimum, no tasks). As slurmctld, a task count under
// the new node count rises to it: the peer's -n1 job updated to
// NumNodes=2 shows NumTasks=2 NumCPUs=2.
func updateShape(q *job.Request, u *api.JobUpdate) *api.Error {
	if u.NumTasks != nil && *u.NumTasks <= 0 {
		return api.Errorf(api.CodeBadTaskCount, "NumTasks=%d", *u.NumTasks)
	}
	if u.MinNodes != nil {
		mx := q.MaxNodes
		if u.MaxNodes != nil {
			mx = *u.MaxNodes
		}
		if *u.MinNodes <= 0 || (mx != 0 && mx < *u.MinNodes) {
			return api.Errorf(api.CodeInvalidNodeCount, "NumNodes=%d-%d", *u.MinNodes, mx)
		}
		q.MinNodes, q.MaxNodes, q.NodesSet = *u.MinNodes, mx, true
	}
	if u.NumTasks != nil {
		q.NTasks = *u.NumTasks
	}
	if u.MinNodes != nil && q.NTasks > 0 && q.NTasks < q.MinNodes {
		q.NTasks = q.MinNodes
	}
	if u.MinCPUsNode != nil && *u.MinCPUsNode > 0 {
		q.MinCPUs = *u.MinCPUsNode
		if u.NumCPUs == nil {
			// slurmctld recounts the job's CPUs from the new value, even
			// below its tasks' (the peer's -n4 job updated to
			// MinCPUsNode=1 shows NumCPUs=1 and runs on one CPU).
			q.NumCPUs = q.MinCPUs * max(q.MinNodes, 1)
		}
	}
	if err := updateNumCPUs(q, u); err != nil {
		return err
	}
	if u.CPUsPerTask != nil {
		q.CPUsPerTask = *u.CPUsPerTask
	}
	if u.TasksPerNode != nil {
		q.NTasksPerNode = *u.TasksPerNode // an operator's (update_admin.go)
	}
	if u.MemPerCPU != nil {
		m := *u.MemPerCPU
		q.MemPerCPU, q.MemPerNode, q.MemPerGPU = &m, nil, nil
	}
	if u.MemPerNode != nil {
		m := *u.MemPerNode
		q.MemPerNode, q.MemPerCPU, q.MemPerGPU = &m, nil, nil
	}
	return nil
}

// updateNumCPUs applies NumCPUs=N[-M]: the job's CPU count, and most,
// whatever its tasks need, as the peer shows (and runs) it; a most under
// the least is "CPU count specification invalid".
func updateNumCPUs(q *job.Request, u *api.JobUpdate) *api.Error {
	lo, hi := q.NumCPUs, q.MaxCPUs
	if u.NumCPUs != nil {
		lo = *u.NumCPUs
	}
	if u.MaxCPUs != nil {
		hi = *u.MaxCPUs
	}
	if (u.NumCPUs != nil && lo < 1) || (hi != 0 && hi < max(lo, 1)) {
		return api.Errorf(api.CodeInvalidCPUCount, "NumCPUs=%d-%d", lo, hi)
	}
	q.NumCPUs, q.MaxCPUs = lo, hi
	return nil
}

// runningNodeCount answers NumNodes on a job that has started: its own
// node count changes nothing, as in Slurm; Loam does not grow or shrink
// a running job, so any other count is not supported.
func runningNodeCount(r *jobRecord, u *api.JobUpdate) *api.Error {
	if u.MinNodes == nil {
		return nil
	}
	n := len(r.St.Alloc)
	if *u.MinNodes == n && (u.MaxNodes == nil || *u.MaxNodes == 0 || *u.MaxNodes == n) {
		return nil
	}
	return api.Errorf(api.CodeNotSupported, "job %d has started on %d nodes: Loam does not resize running jobs", r.ID, n)
}
