package controller

import (
	"maps"
	"slices"
	"time"

	"github.com/loamhpc/loam/ctld/trigger"
	"github.com/loamhpc/loam/pkg/store"
)

// matchTriggers matches the triggers against the nodes and jobs now and
// returns the programs to start. Housekeeping calls it holding c.mu, and
// starts them (startTriggers) after letting go of it.
func (c *Controller) matchTriggers(now time.Time) []trigger.Fire {
	tg := &c.trig
	set := tg.lock()
	defer tg.mu.Unlock()
	fires, drop := set.Step(now, c.triggerSnapshot(set.Jobs()))
	if len(drop) > 0 {
		c.forgetTriggers(drop)
	}
	return fires
}

// triggerSnapshot is the nodes' conditions and the named jobs'. The
// caller holds c.mu.
func (c *Controller) triggerSnapshot(jobs []uint32) trigger.Snapshot {
	snap := trigger.Snapshot{Nodes: make(map[string]trigger.NodeView, len(c.nodes)), Jobs: make(map[uint32]trigger.JobView, len(jobs))}
	for name, n := range c.nodes {
		snap.Nodes[name] = nodeView(n)
	}
	for _, id := range jobs {
		r := c.jobs[id]
		if r == nil {
			continue
		}
		v := trigger.JobView{Done: r.finished(), Pending: r.pending()}
		if end, ok := runEnd(r); ok {
			v.End = end
		}
		if v.Done && r.St.End != 0 {
			v.End = fromUnix(r.St.End) // Slurm's end_time once it ended
		}
		snap.Jobs[id] = v
	}
	return snap
}

// nodeView is n's condition as the triggers see it.
func nodeView(n *nodeRec) trigger.NodeView {
	down := n.admin.Down || n.notResponding
	idle := n.registered && !down && !n.admin.Drain && !n.admin.Fail && len(n.jobs) == 0
	v := trigger.NodeView{Down: down, Drained: n.admin.Drain && len(n.jobs) == 0,
		Fail: n.admin.Fail, Idle: idle, IdleSince: n.lastBusy}
	if len(n.jobs) > 0 {
		v.Jobs = slices.Sorted(maps.Keys(n.jobs))
	}
	return v
}

// noteNodeChange reports n's change from before to the triggers where
// the controller makes it, so that one undone before the next pass is
// not missed. The caller holds c.mu.
func (c *Controller) noteNodeChange(n *nodeRec, before trigger.NodeView) {
	set := c.trig.lock()
	defer c.trig.mu.Unlock()
	set.NodeChanged(n.name, before, nodeView(n))
}

// noteReconfig fires the --reconfig triggers at the next pass.
func (c *Controller) noteReconfig() {
	set := c.trig.lock()
	defer c.trig.mu.Unlock()
	set.Reconfigured()
}

// startTriggers starts the programs of fired triggers without waiting for
// them; each is reaped in the background, and a one-shot trigger is then
// forgotten.
func (c *Controller) startTriggers(fires []trigger.Fire) {
	tg := &c.trig
	runner := tg.runner
	if runner == nil {
		runner = trigger.OSRunner{}
	}
	for _, f := range fires {
		e := trigger.ExecOf(f)
		log := c.log.WithField("trigger", f.Trigger.ID).WithField("program", e.Path).WithField("arg", f.Arg)
		done, err := runner.Start(e)
		if err != nil {
			log.WithError(err).Warn("trigger program did not start")
			c.triggerDone(f.Trigger.ID)
			continue
		}
		log.Info("trigger fired")
		go func(id uint32) {
			<-done
			c.triggerDone(id)
		}(f.Trigger.ID)
	}
}

// triggerDone re-arms a permanent trigger whose program ended, or
// forgets a one-shot one.
func (c *Controller) triggerDone(id uint32) {
	tg := &c.trig
	set := tg.lock()
	defer tg.mu.Unlock()
	if set.Done(id) {
		c.forgetTriggers([]uint32{id})
	}
}

// forgetTriggers deletes triggers from the store without waiting for the
// commit (a trigger that comes back after a crash fires again: better
// than one lost). The caller holds c.trig.mu.
func (c *Controller) forgetTriggers(ids []uint32) {
	c.store.Enqueue(func(tx *store.Tx) error {
		for _, id := range ids {
			if err := tx.DeleteTrigger(id); err != nil {
				return err
			}
		}
		return nil
	})
}
