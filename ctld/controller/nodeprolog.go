package controller

import (
	"fmt"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// Node prolog failures, as the node daemon reports them (its supervisor's
// launch failure code), and how slurmctld describes a batch job requeued
// held after one: scontrol Reason=launch_failed_requeued_held, squeue
// "(launch failed requeued held)".
const (
	prologFailCode        = "ESLURMD_PROLOG_FAILED"
	launchFailedHeldDesc  = "launch failed requeued held"
	scriptDrainReasonUser = "root" // slurmd's SlurmdUser drains the node
)

// prologFailedExit is an interactive job's exit code after a prolog
// failure: 0:54, as slurmctld records it.
var prologFailedExit = job.ExitCode{Signal: 54}

// nodeScriptEvent handles what a node's prolog or epilog did: a failed one
// drains the node (from any node of the job), and a failed prolog ends the
// job's run. It reports whether it dealt with the event in full.
func (c *Controller) nodeScriptEvent(b *batch, node string, r *jobRecord, ev *api.JobEvent) bool {
	if ev.Drain != "" {
		c.drainForScript(b, node, ev.Drain, ev.Time)
	}
	if ev.FailCode != prologFailCode || r == nil || !r.running() {
		return false
	}
	c.prologFailed(b, r, node)
	return true
}

// drainForScript drains node as slurmd does when its prolog or epilog
// failed (Reason=Prolog error [root@time]), or slurmstepd when a job's
// processes outlived SIGKILL (Kill task failed).
func (c *Controller) drainForScript(b *batch, node, reason string, at int64) {
	n := c.nodes[node]
	if n == nil || (n.admin.Drain && n.admin.Reason == reason) {
		return // a prolog's failure reported again once its epilog is done
	}
	before := nodeView(n)
	defer c.noteNodeChange(n, before) // trigger_fire.go
	if at == 0 {
		at = unix(c.now())
	}
	n.admin.Drain, n.admin.Reason, n.admin.ReasonUser, n.admin.ReasonTime = true, reason, scriptDrainReasonUser, at
	b.persist(c.persistNode(n))
	c.updateEngine(n)
	c.log.WithField("node", node).WithField("reason", reason).Warn("node drained on its daemon's report")
}

// prologFailed ends the run of job r whose prolog failed on node: a batch
// job goes back to the queue held (not held with SchedulerParameters=
// nohold_on_prolog_fail) unless it asked --no-requeue (then PrologFlags=
// ForceRequeueOnFail requeues it all the same), an interactive one is
// cancelled, as slurmctld does. Its other nodes end their part.
func (c *Controller) prologFailed(b *batch, r *jobRecord, node string) {
	c.stopOtherNodes(b, r, node)
	conf := c.confNow().conf
	r.St.PrologFailed = true    // acct.go: the batch step's exit is blank
	uid := c.confNow().slurmUID // sacct: "CANCELLED by 0", SlurmUser's kill
	switch {
	case r.Req.Script == "":
		r.nodePrologFailed = node // cancelled, never run again
		r.St.CancelledBy = &uid
		b.persist(c.finish(r, job.Cancelled, job.ReasonNone, prologFailedExit))
		return
	case !r.St.Requeue && !conf.NodeProlog.Flags.Has(slurmconf.PrologForceRequeueOnFail):
		r.St.CancelledBy = &uid
		b.persist(c.finish(r, job.Cancelled, job.ReasonNone, job.ExitCode{}))
		return
	}
	hold := HeldAdmin
	if conf.SchedulerParameters.NoHoldOnPrologFail {
		hold = NotHeld
	}
	r.St.EndState = job.Requeued // the run's accounting: REQUEUED (acct_runs.go)
	b.persist(c.requeueLocked(r, hold, 0))
	if hold != NotHeld {
		r.St.Desc = launchFailedHeldDesc
		b.persist(c.persistStatus(r))
	}
}

// stopOtherNodes tells every node of r but node to end its part.
func (c *Controller) stopOtherNodes(b *batch, r *jobRecord, node string) {
	req := api.TerminateRequest{JobID: r.ID, Reason: api.TerminateCancel, Grace: int64(c.killWait() / time.Second)}
	for _, t := range c.nodeTargets(r) {
		if t.node == node {
			continue
		}
		b.sends = append(b.sends, func() {
			c.sendQuiet(t, func(ctx contextT) error { _, err := c.noded.Terminate(ctx, t.addr, &req); return err })
		})
	}
}

// jobCompleting handles the batch node's word that job r ended there and
// its epilog runs: the job shows COMPLETING, its end decided now (as
// jobEnded would decide it), until the Ended event follows the epilog. A
// job already being stopped is COMPLETING already.
func (c *Controller) jobCompleting(b *batch, r *jobRecord, ev *api.JobEvent) {
	if !r.running() || r.St.EndState != "" {
		return
	}
	st, reason := endStateOf(ev)
	reason = heldEndReason(r, st, reason) // hold_running.go
	c.setState(r, job.Completing)
	r.St.EndState, r.St.EndReason = st, reason
	r.St.End = unix(c.now()) // squeue's TIME stops, as for Slurm's CG job
	b.persist(c.persistStatus(r))
}

// completingOn reports whether a job on n is COMPLETING (being stopped, or
// its epilog runs): the node shows COMPLETING too, as in Slurm.
func (c *Controller) completingOn(n *nodeRec) bool {
	for id := range n.jobs {
		if r := c.jobs[id]; r != nil && r.St.State == job.Completing {
			return true
		}
	}
	return false
}

// prologLaunchError is the answer to a step of job r launched after its
// node prolog failed, as srun reports slurmd's ESLURMD_PROLOG_FAILED:
// Detail is srun's "Task launch ... failed on node N: Job prolog failed"
// line, nil when r's prolog did not fail. The caller holds c.mu.
func prologLaunchError(r *jobRecord, stepID uint32) *api.Error {
	if r == nil || r.nodePrologFailed == "" {
		return nil
	}
	e := api.NewError(api.CodePrologFailed)
	e.Detail = fmt.Sprintf("Task launch for StepId=%s failed on node %s: %s", stepName(r.ID, stepID), r.nodePrologFailed, e.Message)
	return e
}

// stepPrologError is prologLaunchError for job id under the lock.
func (c *Controller) stepPrologError(id, stepID uint32) *api.Error {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return prologLaunchError(c.jobs[id], stepID)
}
