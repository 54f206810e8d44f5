package controller

import (
	"cmp"
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/store"
)

// tickEvery is how often housekeeping runs: node timeouts, deadlines, time
// limits, the purge of old finished jobs.
const tickEvery = time.Second

// confNow returns the configuration in force.
func (c *Controller) confNow() *confState { return c.conf.Load() }

// schedule asks for a scheduling cycle soon; calls coalesce.
func (c *Controller) schedule() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// loop runs scheduling cycles on events and periodically, and
// housekeeping every tickEvery. It is the only goroutine that runs cycles.
func (c *Controller) loop(ctx context.Context) {
	tick := time.NewTicker(tickEvery)
	defer tick.Stop()
	var lastCycle time.Time
	c.schedule()
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.kick:
			// Let a burst of events coalesce, and keep cycles to about a
			// third of the lock time: wait twice as long as the last cycle
			// took (at least a few milliseconds), so requests keep flowing
			// however large the queue.
			gap := max(2*time.Duration(c.lastCyc.Load()), 3*time.Millisecond)
			select {
			case <-ctx.Done():
				return
			case <-time.After(gap):
			}
			c.drainKick()
			c.runCycle()
			lastCycle = time.Now()
		case <-tick.C:
			c.housekeeping()
			if time.Since(lastCycle) >= c.cyclePeriod() {
				c.runCycle()
				lastCycle = time.Now()
			}
			if c.opts.Watchdog > 0 {
				c.notify("WATCHDOG=1")
			}
		}
	}
}

func (c *Controller) drainKick() {
	select {
	case <-c.kick:
	default:
	}
}

// cyclePeriod is how often a cycle runs without events: the backfill
// interval, so estimates and reasons stay fresh.
func (c *Controller) cyclePeriod() time.Duration {
	sp := c.confNow().conf.SchedulerParameters
	p := sp.BfInterval
	if p <= 0 || (sp.SchedInterval > 0 && sp.SchedInterval < p) {
		p = sp.SchedInterval
	}
	if p <= 0 {
		p = 30 * time.Second
	}
	return p
}

// runCycle runs one scheduling cycle and applies it; a panic inside is
// logged with its stack and the controller keeps going.
func (c *Controller) runCycle() {
	start := time.Now()
	var b batch
	func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		defer func() {
			if v := recover(); v != nil {
				c.log.WithField("cycle", c.cycleNo).WithField("panic", fmt.Sprint(v)).
					WithField("stack", string(debug.Stack())).Error("scheduling cycle panicked")
			}
		}()
		c.cycleNo++
		c.cycleAt = unix(c.now())
		c.advBeforeCycle(&b) // admin reservations: expire, hand to the engine
		res := c.eng.Cycle(c.now())
		c.applyCycle(&b, res)
		c.obs.cycle(res)
	}()
	took := time.Since(start)
	c.lastCyc.Store(int64(took))
	c.obs.cycleTook(took)
	c.finishBatch(&b)
	c.log.WithField("cycle", c.cycleNo).WithField("took", took.String()).Debug("cycle done")
}

// housekeeping enforces what depends on time passing.
func (c *Controller) housekeeping() {
	var b batch
	c.mu.Lock()
	now := c.now()
	c.checkNodeTimeouts(&b, now)
	c.checkRunningLimits(&b, now)
	c.checkDeadlines(&b, now)
	c.checkAdvScripts(now)  // advresv_scripts.go: ResvProlog, ResvEpilog
	c.checkAdvEnds(&b, now) // advresv_end.go: ResvOverRun, reservations' ends
	c.recheckTimed()
	c.purgeFinished(&b, now)
	c.checkTimeWarnings(now)
	c.pruneAudit(&b, now)
	c.obs.tick(now)
	fires := c.matchTriggers(now) // trigger_fire.go
	c.mu.Unlock()
	c.finishBatch(&b)
	c.startTriggers(fires)
}

// checkNodeTimeouts marks nodes silent past SlurmdTimeout down; their jobs
// fail or requeue. Nodes that never registered go down after SlurmdTimeout
// from the controller's start.
func (c *Controller) checkNodeTimeouts(b *batch, now time.Time) {
	timeout := c.confNow().conf.SlurmdTimeout
	if timeout <= 0 {
		return
	}
	for _, n := range c.nodesByName() {
		seen := n.lastSeen
		if !n.registered {
			seen = c.started
		}
		if n.notResponding || now.Sub(seen) <= timeout || (!n.registered && n.admin.Down) {
			continue
		}
		c.nodeNotResponding(b, n, now)
	}
}

// nodeNotResponding marks n down for not answering; its jobs fail or
// requeue.
func (c *Controller) nodeNotResponding(b *batch, n *nodeRec, now time.Time) {
	defer c.noteNodeChange(n, nodeView(n)) // trigger_fire.go
	n.notResponding = true
	if !n.admin.Down {
		n.admin.Down, n.admin.DownByController = true, true
		// An admin's drain keeps its reason, as Slurm keeps a node's
		// reason when it marks it down for not responding.
		if !n.admin.Drain {
			n.admin.Reason, n.admin.ReasonUser, n.admin.ReasonTime = "Not responding", "slurm", unix(now)
		}
		b.persist(c.persistNode(n))
	}
	c.log.WithField("node", n.name).Warn("node not responding: down")
	c.updateEngine(n)
	for _, r := range c.nodeJobs(n) {
		c.nodeFailJob(b, r, n.name)
	}
}

// checkRunningLimits stops jobs past their time limit that their node
// daemon has not stopped (it enforces limits itself; this is the
// controller's backstop, with KillWait and a minute of slack).
func (c *Controller) checkRunningLimits(b *batch, now time.Time) {
	slack := c.killWait() + time.Minute
	for _, r := range c.running() {
		if r.St.EndState != "" && r.St.StopBy != 0 && now.After(fromUnix(r.St.StopBy).Add(time.Minute)) {
			c.log.WithField("job_id", r.ID).Warn("node daemon never reported the end of a stopped job: ending it here")
			b.persist(c.finishStopped(r, job.ExitCode{Signal: 9}))
			continue
		}
		end, ok := enforcedEnd(c.confNow().conf, r) // limits.go: runEnd plus OverTimeLimit
		if !ok || r.St.EndState != "" {
			continue
		}
		if now.After(end.Add(slack)) {
			c.log.WithField("job_id", r.ID).Warn("job past its time limit: stopping it")
			c.stopRunning(b, r, job.Timeout, job.ReasonTimeLimit, c.killWait())
		}
	}
}

// checkDeadlines ends jobs whose --deadline passed.
func (c *Controller) checkDeadlines(b *batch, now time.Time) {
	for id := range c.deadlines {
		r := c.jobs[id]
		if r == nil || r.finished() {
			delete(c.deadlines, id)
			continue
		}
		missed := r.pending() && deadlineMissed(r, now) // deadline.go
		if now.Unix() < r.St.Deadline && !missed {
			continue
		}
		switch {
		case missed:
			b.persist(c.finish(r, job.Deadline, job.ReasonDeadLine, deadlineExit))
		case r.pending():
			b.persist(c.finish(r, job.Deadline, job.ReasonDeadLine, job.ExitCode{}))
		case r.St.EndState == "":
			c.stopRunning(b, r, job.Deadline, job.ReasonDeadLine, c.killWait())
		}
	}
}

// purgeFinished moves jobs finished more than MinJobAge ago out of the
// live table; they stay in accounting. Jobs end in endedIDs order, so the
// scan stops at the first one too young.
func (c *Controller) purgeFinished(b *batch, now time.Time) {
	age := c.confNow().conf.MinJobAge
	var ids []uint32
	k := 0
	for ; k < len(c.endedIDs); k++ {
		r := c.jobs[c.endedIDs[k]]
		if r == nil || !r.finished() {
			continue // requeued meanwhile, or already gone
		}
		if now.Sub(fromUnix(r.St.End)) < age {
			break
		}
		ids = append(ids, r.ID)
		c.removeRecord(r)
	}
	c.endedIDs = c.endedIDs[k:]
	if len(ids) == 0 {
		return
	}
	c.compactOrder()
	b.persist(c.store.Enqueue(func(tx *store.Tx) error {
		for _, id := range ids {
			if err := tx.DeleteJob(id); err != nil {
				return err
			}
		}
		return nil
	}))
}

// running returns the running jobs in id order.
func (c *Controller) running() []*jobRecord {
	out := make([]*jobRecord, 0, len(c.runningSet))
	for _, r := range c.runningSet {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *jobRecord) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// nodeJobs returns the jobs running on n in id order.
func (c *Controller) nodeJobs(n *nodeRec) []*jobRecord {
	var out []*jobRecord
	for id := range n.jobs {
		if r := c.jobs[id]; r != nil {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b *jobRecord) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// nodesByName returns the nodes sorted by name, as sinfo lists them.
func (c *Controller) nodesByName() []*nodeRec {
	out := make([]*nodeRec, 0, len(c.nodes))
	for _, n := range c.nodes {
		out = append(out, n)
	}
	slices.SortFunc(out, func(a, b *nodeRec) int { return hostlist.Compare(a.name, b.name) })
	return out
}
