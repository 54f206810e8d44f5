package controller

import "time"

// CycleStats count the work of one scheduling pass (sched.Stats).
type CycleStats struct {
	Considered   int // pending jobs examined
	Started      int
	Backfilled   int // started ahead of a higher-priority blocked job
	Reservations int // held after the pass
	Preempted    int // victims chosen in the pass
	Deadlocks    int // wait-for cycles broken in the pass
}

// ResvChange is a reservation the pass created or dropped; extensions are
// left out. Reason is set on drops: started, timeout, deadlock, gone,
// displaced, infeasible or window.
type ResvChange struct {
	JobID     uint32
	Partition string
	Created   bool
	Reason    string
}

// Reservation drop reasons as ResvChange spells them.
const (
	DropStarted    = "started"
	DropTimeout    = "timeout"
	DropDeadlock   = "deadlock"
	DropGone       = "gone"
	DropDisplaced  = "displaced"
	DropInfeasible = "infeasible"
	DropWindow     = "window"
)

// cycle records what a cycle decided (c.mu held, after the plan was
// applied): O(starts + preemptions + reservation changes).
func (o *observer) cycle(res *CycleResult) {
	m, a := o.m, &o.acc
	m.cycles.Inc()
	m.started.Add(float64(res.Stats.Started))
	m.backfilled.Add(float64(res.Stats.Backfilled))
	m.deadlocks.Add(float64(res.Stats.Deadlocks))
	m.considered.Set(float64(res.Stats.Considered))
	m.examined.Add(float64(res.Stats.Considered))
	o.diag.cycle(res.Now, res.Stats.Reservations)
	m.frag.Set(res.Fragmentation)
	a.fragSum += res.Fragmentation
	a.fragN++
	o.lastFrag = res.Fragmentation
	for i := range res.Launches {
		if r := o.c.jobs[res.Launches[i].JobID]; r != nil && r.running() {
			o.started(r, res.Now)
		}
	}
	for _, p := range res.Preempts {
		if r := o.c.jobs[p.JobID]; r != nil && r.running() {
			o.preempted(r, p.Reason, res.Now)
		}
	}
	for _, rc := range res.ResvChanges {
		if rc.Created {
			m.resvCreated.WithLabelValues(rc.Partition).Inc()
			a.resvNew[rc.Partition]++
			continue
		}
		m.resvDropped.WithLabelValues(rc.Partition, rc.Reason).Inc()
		if rc.Reason == DropTimeout {
			a.resvExpired[rc.Partition]++
		}
	}
	o.est.kick(res.Now)
}

// started records a job's wait: from its submission (or requeue) to now.
func (o *observer) started(r *jobRecord, now time.Time) {
	part := r.St.Partition
	wait := max(now.Unix()-r.St.Submit, 0)
	o.m.wait.WithLabelValues(part).Observe(float64(wait))
	a := &o.acc
	a.started[part]++
	a.waitSum[part] += float64(wait)
	a.waitBuckets[bucketLabel(part, waitBucket(wait))]++
	if wait >= int64(wholeWait/time.Second) && o.wholeNodes(r) {
		a.wholeWaits++
	}
	o.est.started(r.ID, now)
}

// wholeNodes reports whether a job holds every GPU of each of its nodes.
func (o *observer) wholeNodes(r *jobRecord) bool {
	gpus := o.nodeGPUs()
	for _, al := range r.St.Alloc {
		if n := gpus[al.Node]; n == 0 || len(al.GPUs) != n {
			return false
		}
	}
	return len(r.St.Alloc) > 0
}

// nodeGPUs caches each node's GPU count for the configuration in force.
func (o *observer) nodeGPUs() map[string]int {
	cs := o.c.confNow()
	if o.gpusFor != cs {
		o.gpusFor, o.gpusOf = cs, o.c.nodeGPUCounts()
	}
	return o.gpusOf
}

// preempted records a victim: its tenant, how long it had run, the
// GPU time that run was worth.
func (o *observer) preempted(r *jobRecord, reason string, now time.Time) {
	gpus := 0
	for _, al := range r.St.Alloc {
		gpus += len(al.GPUs)
	}
	ran := max(now.Sub(fromUnix(r.St.Start)), 0)
	tenant := r.St.Account
	o.m.preempts.WithLabelValues(tenant, r.St.Partition, reason).Inc()
	o.m.preemptGPUs.WithLabelValues(tenant).Add(float64(gpus) * ran.Seconds())
	a := &o.acc
	a.preempted[tenant]++
	a.lostGPUh[tenant] += float64(gpus) * ran.Hours()
	if ran < youngRun {
		a.young[tenant]++
	}
}

// cycleTook records a cycle's wall time (outside the lock).
func (o *observer) cycleTook(d time.Duration) {
	o.m.cycleSeconds.Observe(d.Seconds())
	o.diag.took(d)
}

// jobEnded records a job that reached a final state (c.mu held); a job
// that ran teaches the estimates how much of its limit it used.
func (o *observer) jobEnded(r *jobRecord) {
	o.m.ended.WithLabelValues(r.St.Partition, string(r.St.State)).Inc()
	if r.St.Start == 0 || r.St.End < r.St.Start {
		o.est.forget(r.ID)
		return
	}
	o.est.ended(r.Req.UserName, r.St.Account, limitDuration(r.St.TimeLimit), time.Duration(r.St.End-r.St.Start)*time.Second)
}
