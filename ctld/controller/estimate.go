package controller

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loamhpc/loam/pkg/cluster"
	"github.com/loamhpc/loam/pkg/estimate"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/store"
)

// estimateEvery is how often (by the controller's clock) the corrected
// start estimates are recomputed after a cycle.
const estimateEvery = 15 * time.Second

// maxEstEvents bounds the observations waiting for the estimator.
const maxEstEvents = 100000

// estimator keeps the history-corrected start estimates (pkg/estimate).
// Hooks under c.mu queue observations; its own goroutine applies them,
// copies what it needs of the live state under the read lock, and
// computes outside it, so cycles never wait for it.
type estimator struct {
	c       *Controller
	model   *estimate.Model // touched only by run
	runMu   sync.Mutex      // serializes run
	mu      sync.Mutex      // guards events
	events  []estEvent
	last    time.Time // last kick that triggered, guarded by c.mu
	trigger chan struct{}
	result  atomic.Pointer[estResult]
	st      atomic.Pointer[estimate.Stats]
}

type estEvent struct {
	start        bool
	forget       bool
	id           uint32
	at           time.Time
	user, tenant string
	limit, ran   time.Duration
}

// estResult is one computation's corrected starts.
type estResult struct {
	at    time.Time
	start map[uint32]time.Time
}

func newEstimator(c *Controller, cfg estimate.Config) *estimator {
	e := &estimator{c: c, model: estimate.NewModel(cfg), trigger: make(chan struct{}, 1)}
	st := e.model.Stats()
	e.st.Store(&st)
	return e
}

func (e *estimator) queue(ev estEvent) {
	e.mu.Lock()
	if len(e.events) >= maxEstEvents {
		e.events = e.events[1:]
	}
	e.events = append(e.events, ev)
	e.mu.Unlock()
}

func (e *estimator) started(id uint32, at time.Time) { e.queue(estEvent{start: true, id: id, at: at}) }
func (e *estimator) forget(id uint32)                { e.queue(estEvent{forget: true, id: id}) }
func (e *estimator) ended(user, tenant string, limit, ran time.Duration) {
	e.queue(estEvent{user: user, tenant: tenant, limit: limit, ran: ran})
}

// kick asks for a recomputation when the last is estimateEvery old (c.mu
// held).
func (e *estimator) kick(now time.Time) {
	if now.Sub(e.last) < estimateEvery {
		return
	}
	e.last = now
	select {
	case e.trigger <- struct{}{}:
	default:
	}
}

func (e *estimator) loop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-e.trigger:
			e.run()
		}
	}
}

// run applies the queued observations and recomputes every estimate.
func (e *estimator) run() {
	e.runMu.Lock()
	defer e.runMu.Unlock()
	e.mu.Lock()
	evs := e.events
	e.events = nil
	e.mu.Unlock()
	for _, ev := range evs {
		switch {
		case ev.start:
			e.model.ObserveStart(ev.id, ev.at)
		case ev.forget:
			e.model.Forget(ev.id)
		default:
			e.model.ObserveEnd(ev.user, ev.tenant, ev.limit, ev.ran)
		}
	}
	e.c.mu.RLock()
	snap := e.c.estimateSnapshot()
	e.c.mu.RUnlock()
	in, ids := snap.input()
	out := e.model.Estimate(in)
	res := &estResult{at: in.Now, start: make(map[uint32]time.Time, len(ids))}
	for i, id := range ids {
		if !out[i].IsZero() {
			res.start[id] = out[i]
		}
	}
	e.result.Store(res)
	st := e.model.Stats()
	e.st.Store(&st)
}

// startOf is a pending job's estimated start: the corrected one when the
// last computation had the job, else the scheduler's plan.
func (e *estimator) startOf(r *jobRecord) time.Time {
	if res := e.result.Load(); res != nil {
		if t, ok := res.start[r.ID]; ok {
			return t
		}
	}
	return r.plan.EstStart
}

func (e *estimator) stats() estimate.Stats { return *e.st.Load() }

// seed teaches the model the jobs that ended in the last two days, from
// accounting, so estimates after a restart start from what the cluster
// did rather than from the prior.
func (e *estimator) seed() {
	now := e.c.now()
	rows, err := e.c.store.QueryAcct(store.AcctFilter{Start: now.Add(-48 * time.Hour).Unix(), Limit: 50000})
	if err != nil {
		e.c.log.WithError(err).Warn("estimates: could not read accounting; starting from the prior")
		return
	}
	slices.SortStableFunc(rows, func(a, b store.AcctRow) int { return cmp.Compare(a.EndTime, b.EndTime) })
	for _, r := range rows {
		var rec struct {
			TimeLimit int64 `json:"time_limit"`
		}
		if r.StartTime == 0 || r.EndTime < r.StartTime || json.Unmarshal(r.Record, &rec) != nil {
			continue
		}
		e.model.ObserveEnd(r.UserName, r.Account, limitDuration(rec.TimeLimit), time.Duration(r.EndTime-r.StartTime)*time.Second)
	}
	st := e.model.Stats()
	e.st.Store(&st)
}

// estSnapshot is what the estimator copies of the live state under the
// read lock: one pass over jobs, no sorting (that happens after).
type estSnapshot struct {
	now     time.Time
	layout  *estimate.Layout
	running []estimate.Running
	pending []pendRef
}

// pendRef is a pending job with its scheduling order.
type pendRef struct {
	tier int
	prio int64
	p    estimate.Pending
}

// estimateSnapshot copies what the model needs (c.mu held): pools,
// running jobs with what they hold, and pending jobs with a planned start
// and their scheduling order (partition tier, priority, id).
func (c *Controller) estimateSnapshot() *estSnapshot {
	cs := c.confNow()
	var parts []estimate.PartitionNodes
	tier := map[string]int{}
	for _, p := range cs.conf.Partitions {
		parts = append(parts, estimate.PartitionNodes{Name: p.Name, Nodes: p.Nodes})
		tier[p.Name] = p.PriorityTier
	}
	var nodes []estimate.Node
	for _, n := range cluster.Nodes(cs.conf) {
		rec := c.nodes[n.Name]
		nodes = append(nodes, estimate.Node{Name: n.Name, GPUs: n.GPUs, CPUs: n.CPUs, Up: rec != nil && rec.schedState() == NodeUp})
	}
	s := &estSnapshot{now: c.now(), layout: estimate.NewLayout(parts, nodes),
		running: make([]estimate.Running, 0, len(c.runningSet)), pending: make([]pendRef, 0, len(c.jobs)-len(c.runningSet))}
	for _, r := range c.runningSet {
		s.running = append(s.running, runningOf(r, s.layout))
	}
	for _, r := range c.jobs {
		if r.pending() && !r.plan.EstStart.IsZero() && r.St.Hold == NotHeld {
			s.pending = append(s.pending, pendRef{tier: tier[r.plan.Partition], prio: r.plan.Priority, p: pendingOf(r, s.layout)})
		}
	}
	return s
}

// input orders the snapshot for the model (outside the lock).
func (s *estSnapshot) input() (*estimate.Input, []uint32) {
	slices.SortFunc(s.pending, func(a, b pendRef) int {
		if a.tier != b.tier {
			return cmp.Compare(b.tier, a.tier)
		}
		if a.prio != b.prio {
			return cmp.Compare(b.prio, a.prio)
		}
		return cmp.Compare(a.p.ID, b.p.ID)
	})
	in := &estimate.Input{Now: s.now, Pools: s.layout.Pools(), Running: s.running, Pending: make([]estimate.Pending, len(s.pending))}
	ids := make([]uint32, len(s.pending))
	for i := range s.pending {
		in.Pending[i], ids[i] = s.pending[i].p, s.pending[i].p.ID
	}
	return in, ids
}

// quotaReason reports whether a pending reason is a quota or job-count
// limit (Slurm's QOS* and Assoc* reasons), which frees as other jobs of the
// tenant or user end.
func quotaReason(r string) bool {
	return strings.HasPrefix(r, "QOS") || strings.HasPrefix(r, "Assoc")
}

func runningOf(r *jobRecord, layout *estimate.Layout) estimate.Running {
	var uses []estimate.NodeUse
	for _, a := range r.St.Alloc {
		uses = append(uses, estimate.NodeUse{Node: a.Node, GPUs: len(a.GPUs), CPUs: a.CPUs})
	}
	limit := limitDuration(r.St.TimeLimit)
	if r.St.StopBy != 0 {
		limit = max(time.Duration(r.St.StopBy-r.St.Start)*time.Second, time.Second)
	}
	return estimate.Running{ID: r.ID, User: r.Req.UserName, Tenant: r.St.Account, Start: fromUnix(r.St.Start),
		Limit: limit, Use: layout.Held(uses)}
}

func pendingOf(r *jobRecord, layout *estimate.Layout) estimate.Pending {
	q := r.Req
	nodes := max(q.MinNodes, 1)
	tasks, cpt := max(q.NTasks, 1), max(q.CPUsPerTask, 1)
	cpus := max(tasks*cpt, nodes*max(q.NTasksPerNode, 0)*cpt, 1)
	p := r.plan
	notBefore := fromUnix(r.St.Begin)
	if windowBound(p.Reason, p.Desc) && p.EstStart.After(notBefore) {
		notBefore = p.EstStart
	}
	return estimate.Pending{ID: r.ID, User: q.UserName, Tenant: r.St.Account,
		Need:  estimate.Use{Pool: layout.Pool(p.Partition), GPUs: requestedGPUs(q, nodes), CPUs: cpus},
		Limit: limitDuration(r.St.TimeLimit), Planned: p.EstStart, NotBefore: notBefore, Limited: quotaReason(string(p.Reason))}
}

// windowBound reports whether a pending reason is an admin reservation's
// window (the job's own, or others' on its nodes): the scheduler's
// estimate already waits for the window, which the history model knows
// nothing of, so no correction may start the job before it.
// desc is the reason's whole text ("ReqNodeNotAvail, Reserved for
// maintenance"; schedengine splits it).
func windowBound(r job.Reason, desc string) bool {
	if sched.Reason(r) == sched.ReasonReservation {
		return true
	}
	switch sched.Reason(desc) {
	case sched.ReasonNodeReserved, sched.ReasonNodeMaint:
		return true
	}
	return false
}
