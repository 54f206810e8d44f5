package controller

import (
	"slices"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
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
		q.MinNodes, q.MaxNodes, q.NodesSet, q.NodesFromGPUs = *u.MinNodes, mx, true, false
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

// runningNodeCount checks NumNodes on a job that has started, as
// slurmctld does: its own node count changes nothing, a smaller one
// shrinks the job (shrinkRunning) unless SchedulerParameters has
// disable_job_shrink, 0 is "Node count specification invalid" and a
// larger one "Requested operation not supported" (the peer's answers): a
// running job does not grow.
func (c *Controller) runningNodeCount(r *jobRecord, u *api.JobUpdate) *api.Error {
	if u.MinNodes == nil {
		return nil
	}
	n, want := len(r.St.Alloc), *u.MinNodes
	switch {
	case want <= 0:
		return api.Errorf(api.CodeInvalidNodeCount, "NumNodes=%d for job %d running on %d nodes", want, r.ID, n)
	case want > n:
		return api.Errorf(api.CodeNotSupported, "job %d runs on %d nodes: a running job does not grow", r.ID, n)
	case want < n && c.shrinkDisabled():
		return api.Errorf(api.CodeNotSupported, "SchedulerParameters=disable_job_shrink")
	case want < n && r.St.EndState != "":
		return api.NewError(api.CodeJobFinished) // being stopped: nothing left to shrink
	}
	return nil
}

// runningNodeList checks NodeList= on a job that has started, as
// slurmctld does: it shrinks the job to those nodes, which must be some
// of its own and keep its batch host ("Invalid node name specified"
// otherwise, and for an empty list), unless SchedulerParameters has
// disable_job_shrink.
func (c *Controller) runningNodeList(r *jobRecord, u *api.JobUpdate) *api.Error {
	if u.RequiredNodes == nil {
		return nil
	}
	if c.shrinkDisabled() {
		return api.Errorf(api.CodeNotSupported, "SchedulerParameters=disable_job_shrink")
	}
	names, err := hostlist.Expand(*u.RequiredNodes)
	if err != nil || len(names) == 0 {
		return api.Errorf(api.CodeInvalidNodeName, "NodeList=%s", *u.RequiredNodes)
	}
	for _, n := range names {
		if !slices.ContainsFunc(r.St.Alloc, func(a api.NodeAllocation) bool { return a.Node == n }) {
			return api.Errorf(api.CodeInvalidNodeName, "%s is not a node of job %d", n, r.ID)
		}
	}
	if r.Req.Script != "" && !slices.Contains(names, r.St.BatchHost) {
		return api.Errorf(api.CodeInvalidNodeName, "the batch host %s cannot leave job %d", r.St.BatchHost, r.ID)
	}
	return nil
}

// shrinkDisabled reports SchedulerParameters=disable_job_shrink.
func (c *Controller) shrinkDisabled() bool {
	return schedulerOption(c.confNow().conf.SchedulerParameters.Raw, "disable_job_shrink") // top.go
}

// shrinkRunning leaves running job r on keep nodes, as slurmctld does
// for NumNodes=keep: the batch host stays, then the job's first nodes in
// node order. The caller holds c.mu.
func (c *Controller) shrinkRunning(b *batch, r *jobRecord, keep int) {
	st := &r.St
	if keep >= len(st.Alloc) {
		return
	}
	order := map[string]int{} // slurm.conf order, Slurm's node bitmap order
	for i, n := range c.confNow().conf.Nodes {
		order[n.Name] = i
	}
	others := make([]string, 0, len(st.Alloc))
	var kept []string
	for _, a := range st.Alloc {
		if a.Node == st.BatchHost {
			kept = append(kept, a.Node)
		} else {
			others = append(others, a.Node)
		}
	}
	slices.SortFunc(others, func(a, b string) int { return order[a] - order[b] })
	kept = append(kept, others[:keep-len(kept)]...)
	c.shrinkTo(b, r, kept)
}

// shrinkTo leaves running job r on the nodes kept (NodeList= checked by
// runningNodeList, or shrinkRunning's choice): the others leave the
// allocation and the steps on them are killed. The caller holds c.mu.
func (c *Controller) shrinkTo(b *batch, r *jobRecord, kept []string) {
	var drop []string
	for _, a := range r.St.Alloc {
		if !slices.Contains(kept, a.Node) {
			drop = append(drop, a.Node)
		}
	}
	if len(drop) == 0 {
		return
	}
	if err := c.dropNodes(b, r, drop); err != nil {
		c.log.WithError(err).WithField("job_id", r.ID).Error("shrink: scheduler could not drop nodes")
		return
	}
	c.log.WithField("job_id", r.ID).WithField("nodes", len(r.St.Alloc)).Info("job shrunk")
}
