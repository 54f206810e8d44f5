package controller

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/job"
)

// handleRegister takes a node daemon's registration: its hardware, health
// and the jobs it still runs, which are re-adopted or ordered killed.
func (c *Controller) handleRegister(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.RegisterRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	var b batch
	c.mu.Lock()
	n := c.nodes[in.Node]
	if n == nil {
		c.mu.Unlock()
		return nil, api.Errorf(api.CodeInvalidNodeName, "node %q is not in slurm.conf", in.Node)
	}
	now := c.now()
	wasDown := n.schedState() == NodeDown
	before := nodeView(n) // for the triggers (trigger_fire.go)
	n.addr, n.report, n.health, n.lastSeen = nodeAddr(in.Addr, n.conf), &in, in.Health, now
	n.cpuLoad, n.freeMem = in.CPULoad, in.FreeMemory
	n.registered, n.notResponding = true, false
	c.checkHardware(&b, n, &in)
	if n.admin.DownByController && c.confNow().conf.ReturnToService > 0 {
		// Back in service: only the controller's DOWN goes; an admin's
		// drain stays, with its reason (Slurm's drain is a flag of its own).
		n.admin.Down, n.admin.DownByController = false, false
		if !n.admin.Drain {
			n.admin.Reason, n.admin.ReasonUser, n.admin.ReasonTime = "", "", 0
		}
		b.persist(c.persistNode(n))
	}
	kill := c.reconcile(&b, n, &in)
	if len(n.jobs) == 0 && (wasDown || n.lastBusy.IsZero()) {
		// A node that comes up idle was last busy now, as in Slurm's
		// registration (LastBusyTime is never Unknown once it answered).
		n.lastBusy = now
	}
	c.updateEngine(n)
	out := &api.RegisterResponse{ClusterName: c.confNow().conf.ClusterName, HeartbeatInterval: c.heartbeatInterval(),
		Kill: kill, Now: unix(now), ConfigGeneration: c.configGeneration()}
	cpus, _, _ := c.usage(n)
	var flags []string
	out.State, flags = c.baseState(n, cpus)
	out.Drain = slices.Contains(flags, api.FlagDrain)
	up := n.schedState() != NodeDown // read under the lock: housekeeping writes it
	c.noteNodeChange(n, before)
	c.mu.Unlock()
	if err := c.finishBatch(&b); err != nil {
		return nil, err
	}
	if wasDown && up {
		c.log.WithField("node", in.Node).Info("node up")
	}
	c.schedule()
	return out, nil
}

// heartbeatInterval is a third of SlurmdTimeout (at most 30 s), so two
// heartbeats can be lost before the node counts as down.
func (c *Controller) heartbeatInterval() int64 {
	t := c.confNow().conf.SlurmdTimeout / 3
	if t <= 0 || t > 30*time.Second {
		t = 30 * time.Second
	}
	return max(int64(t/time.Second), 1)
}

// checkHardware drains a node that reports less than slurm.conf says, as
// Slurm does ("Low RealMemory"). TmpDisk is what the node measured of
// TmpFS (slurmd's reason is the bare "Low TmpDisk"); jobs are still
// placed by the configured TmpDisk, as in Slurm.
func (c *Controller) checkHardware(b *batch, n *nodeRec, in *api.RegisterRequest) {
	nc := n.conf
	var why string
	switch {
	case in.RealMemory < nc.RealMemory:
		why = fmt.Sprintf("Low RealMemory (reported:%d < 100.00 %% of configured:%d)", in.RealMemory, nc.RealMemory)
	case in.CPUs < nc.CPUs:
		why = fmt.Sprintf("Low CPUs (reported:%d < configured:%d)", in.CPUs, nc.CPUs)
	case len(in.GPUs) < nodeGPUCount(nc):
		why = fmt.Sprintf("gres/gpu count reported lower than configured (%d < %d)", len(in.GPUs), nodeGPUCount(nc))
	case in.TmpDisk < nc.TmpDisk:
		why = "Low TmpDisk"
	}
	if why == "" || (n.admin.Drain && n.admin.Reason == why) {
		return
	}
	n.admin.Drain, n.admin.Reason, n.admin.ReasonUser, n.admin.ReasonTime = true, why, "slurm", unix(c.now())
	b.persist(c.persistNode(n))
	c.log.WithField("node", n.name).WithField("reason", why).Warn("node drained: hardware below configuration")
}

// reconcile compares the jobs a registering node runs with what the
// controller believes: unknown ones are to be killed, jobs being stopped
// are told again, and jobs the node lost (started before its daemon and
// not reported) fail or requeue.
func (c *Controller) reconcile(b *batch, n *nodeRec, in *api.RegisterRequest) []uint32 {
	reported := map[uint32]bool{}
	var kill []uint32
	for _, rj := range in.Running {
		reported[rj.JobID] = true
		r := c.jobs[rj.JobID]
		switch {
		case r == nil || !r.running() || !n.jobs[r.ID]:
			kill = append(kill, rj.JobID)
		case r.St.EndState != "":
			c.resendTerminate(b, r, n)
		default:
			c.resendSuspend(b, r, n) // suspend.go
		}
	}
	for id := range n.jobs {
		r := c.jobs[id]
		if r == nil || reported[id] || r.St.BatchHost != n.name {
			continue
		}
		if r.St.Start < in.StartTime && r.St.Launched {
			c.log.WithField("job_id", id).WithField("node", n.name).Warn("node lost a running job")
			c.nodeFailJob(b, r, n.name)
		}
	}
	slices.Sort(kill)
	return kill
}

// handleHeartbeat notes that a node is alive.
func (c *Controller) handleHeartbeat(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.HeartbeatRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.nodes[in.Node]
	now := c.now()
	if n == nil {
		return nil, api.Errorf(api.CodeInvalidNodeName, "node %q is not in slurm.conf", in.Node)
	}
	out := &api.HeartbeatResponse{Now: unix(now), ConfigGeneration: c.configGeneration()}
	if !n.registered || n.notResponding {
		out.Reregister = true
		return out, nil
	}
	n.lastSeen, n.cpuLoad, n.freeMem = now, in.CPULoad, in.FreeMemory
	if n.noRespond { // State=NoResp lasts until the node is heard from
		n.noRespond = false
		c.updateEngine(n)
		c.schedule()
	}
	if n.health != in.Health {
		n.health = in.Health
		c.updateEngine(n)
		c.schedule()
	}
	cpus, _, _ := c.usage(n)
	var flags []string
	out.State, flags = c.baseState(n, cpus) // for HealthCheckNodeState
	out.Drain = slices.Contains(flags, api.FlagDrain)
	for _, jid := range in.Running {
		if r := c.jobs[jid]; r == nil || !r.running() || !n.jobs[jid] {
			if r == nil || !r.running() || r.St.Start < unix(now)-60 {
				out.Kill = append(out.Kill, jid)
			}
		}
	}
	return out, nil
}

// handleEvents applies a node daemon's job events in order, once each.
func (c *Controller) handleEvents(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.JobEventsRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	var b batch
	c.mu.Lock()
	if c.nodes[in.Node] == nil {
		c.mu.Unlock()
		return nil, api.Errorf(api.CodeInvalidNodeName, "node %q is not in slurm.conf", in.Node)
	}
	acked := c.evSeq[in.Node]
	for i := range in.Events {
		ev := &in.Events[i]
		if ev.Seq != 0 && ev.Seq <= acked {
			continue
		}
		c.applyEvent(&b, in.Node, ev)
		acked = max(acked, ev.Seq)
	}
	c.evSeq[in.Node] = acked
	c.mu.Unlock()
	if err := c.finishBatch(&b); err != nil {
		return nil, err
	}
	return &api.JobEventsResponse{Acked: acked}, nil
}

// applyEvent applies one event from node.
func (c *Controller) applyEvent(b *batch, node string, ev *api.JobEvent) {
	r := c.jobs[ev.JobID]
	if r != nil && ev.Run != nil && *ev.Run != r.St.Restarts {
		// An earlier run's event, delivered after the job was requeued
		// (its node came back after NODE_FAIL): it must neither end nor
		// charge the run now going.
		c.log.WithField("job_id", r.ID).WithField("node", node).WithField("run", *ev.Run).
			WithField("kind", ev.Kind).Info("event of an earlier run of the job ignored")
		return
	}
	if r != nil && ev.Usage != nil {
		c.applyUsage(b, r, node, ev.Usage) // usage.go
	}
	if c.nodeScriptEvent(b, node, r, ev) { // nodeprolog.go
		return
	}
	if r == nil || r.St.BatchHost != node {
		return // not this node's batch job (any more)
	}
	log := c.log.WithField("job_id", r.ID).WithField("node", node)
	switch ev.Kind {
	case api.EventStarted:
		if r.running() && !r.St.Launched {
			r.St.Launched = true
			b.persist(c.persistStatus(r))
		}
	case api.EventCompleting:
		c.jobCompleting(b, r, ev) // nodeprolog.go: its epilog runs
	case api.EventEnded:
		log.WithField("exit_code", ev.ExitCode.String()).Debug("job ended")
		c.jobEnded(b, r, ev)
	case api.EventLaunchFailed:
		log.WithField("reason", ev.Message).Warn("job launch failed on its node")
		if r.running() {
			c.cleanupOtherNodes(b, r)
			exit := ev.ExitCode
			if exit == (job.ExitCode{}) {
				exit = job.ExitCode{Status: 1}
			}
			r.St.Desc = ev.Message
			b.persist(c.finish(r, job.Failed, job.ReasonJobLaunchFailure, exit))
		}
	}
}
