package controller

import (
	"slices"
	"syscall"

	"github.com/loamhpc/loam/pkg/api"
)

// keepWithoutNode lets a --no-kill job go on without its failed node, as
// slurmctld's kill_running_job_by_node_name does for a job with
// kill_on_node_fail off and more than one node: the node leaves the job's
// allocation (NodeList, NumNodes, NumCPUs and TRES shrink, ResizeTime is
// set), the scheduler frees what the job held there, the job's steps on
// that node are killed, and the other nodes are not told anything. It
// reports false, changing nothing, when the job must end or requeue as
// before: no -k, a job still starting (Slurm's IS_JOB_CONFIGURING), a job
// already being stopped, its last node, or its batch
// host (the batch script ran there; Loam ends the job rather than leave it
// running with no script, which Slurm 22.05 does). The caller holds c.mu.
func (c *Controller) keepWithoutNode(b *batch, r *jobRecord, node string) bool {
	st := &r.St
	if !r.Req.NoKill || !st.Launched || st.EndState != "" || node == st.BatchHost || len(st.Alloc) < 2 {
		return false
	}
	if !slices.ContainsFunc(st.Alloc, func(a api.NodeAllocation) bool { return a.Node == node }) {
		return false
	}
	log := c.log.WithField("job_id", r.ID).WithField("node", node)
	if err := c.dropNodes(b, r, []string{node}); err != nil {
		log.WithError(err).Warn("no-kill: scheduler could not drop the failed node: ending the job")
		return false
	}
	log.Warn("removing failed node from job") // slurmctld: "Removing failed node %s from %pJ"
	return true
}

// dropNodes takes nodes out of running job r's allocation (excise_node_
// from_job): the scheduler frees what the job held there, the job's steps
// with tasks on them are killed, NodeList, NumNodes, NumCPUs and TRES
// shrink and ResizeTime is set. The caller holds c.mu.
func (c *Controller) dropNodes(b *batch, r *jobRecord, nodes []string) error {
	now := c.now()
	st := &r.St
	for _, node := range nodes {
		if err := c.eng.DropNode(r.ID, node, now); err != nil {
			return err
		}
		c.killStepsOnNode(b, r, node)
		if n := c.nodes[node]; n != nil {
			delete(n.jobs, r.ID)
			n.lastBusy = now
		}
		st.Alloc = slices.DeleteFunc(slices.Clone(st.Alloc), func(a api.NodeAllocation) bool { return a.Node == node })
	}
	st.ResizeTime = unix(now)
	b.persist(c.persistStatus(r))
	c.jobChanged(r)
	c.schedule() // what the job held on the nodes is free
	return nil
}

// killStepsOnNode kills job r's running steps that have tasks on failed
// node, on all their other nodes, as Slurm's kill_step_on_node does for a
// step without its own --no-kill: a step is one program and loses its
// meaning with part of its tasks. Each step's end then comes from its
// srun, as for scancel JOB.STEP (step_signal.go). The caller holds c.mu.
func (c *Controller) killStepsOnNode(b *batch, r *jobRecord, node string) {
	js := c.steps[r.ID]
	if js == nil {
		return
	}
	for _, s := range js.list {
		if s.running() && slices.ContainsFunc(s.Layout.Nodes, func(sn api.StepNode) bool { return sn.Node == node }) {
			c.queueStepSignal(b, s, int(syscall.SIGKILL), node, "no-kill: killing a step of the failed node failed")
		}
	}
}
