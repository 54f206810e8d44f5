package controller

import (
	"cmp"
	"context"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/store"
)

// The priority audit (R5) stores every priority change the scheduler
// reports: time, job, old and new priority, the weighted factors, and a
// reason naming the factors that moved. The scheduler reports a change
// only when a job's integer priority differs from the previous cycle's,
// so a cycle over 50,000 pending jobs writes the few that changed, not
// 50,000 rows; the rows join the cycle's own commit (one transaction).
// Rows older than the retention are pruned hourly by housekeeping.

// auditCycle records res's priority changes and keeps the factors of
// every pending job current (a cycle reports factors only with a change).
func (c *Controller) auditCycle(b *batch, res *CycleResult) {
	at := unix(res.Now)
	rows := make([]store.AuditRow, 0, len(res.Priorities))
	for _, pc := range res.Priorities {
		prev, had := c.live.factors[pc.JobID]
		c.live.factors[pc.JobID] = pc.Factors
		why := changeReason(prev, had, pc)
		data, _ := json.Marshal(pc.Factors)
		rows = append(rows, store.AuditRow{JobID: pc.JobID, Time: at, Old: pc.Old, New: pc.New, Reason: why, Factors: data})
	}
	for i := range res.Pending {
		p := &res.Pending[i]
		r := c.jobs[p.JobID]
		if r == nil || !r.pending() || r.plan.Factors != nil {
			continue
		}
		if f, ok := c.live.factors[p.JobID]; ok {
			r.plan.Factors = &f
		}
	}
	for i := range res.Launches {
		delete(c.live.factors, res.Launches[i].JobID)
	}
	if len(rows) == 0 {
		return
	}
	b.persist(c.store.Enqueue(func(tx *store.Tx) error {
		for _, r := range rows {
			if err := tx.AddPriorityChange(r.JobID, r.Time, r.Old, r.New, r.Reason, r.Factors); err != nil {
				return err
			}
		}
		return nil
	}))
}

// factorNames name the factors in reasons, in sprio's column order.
var factorNames = []struct {
	name string
	get  func(api.PriorityFactors) float64
}{
	{"age", func(f api.PriorityFactors) float64 { return f.Age }},
	{"fairshare", func(f api.PriorityFactors) float64 { return f.Fairshare }},
	{"jobsize", func(f api.PriorityFactors) float64 { return f.JobSize }},
	{"partition", func(f api.PriorityFactors) float64 { return f.Partition }},
	{"qos", func(f api.PriorityFactors) float64 { return f.QOS }},
	{"aging", func(f api.PriorityFactors) float64 { return f.Aging }},
	{"compensation", func(f api.PriorityFactors) float64 { return f.Compensation }},
	{"nice", func(f api.PriorityFactors) float64 { return -f.Nice }},
	{"site", func(f api.PriorityFactors) float64 { return f.Site }},
}

// changeReason says why a priority changed: "initial" for a job's first
// priority, else the factors that moved, largest move first, with their
// signed change ("age+12,fairshare-3").
func changeReason(prev api.PriorityFactors, had bool, pc PriorityInfo) string {
	if pc.Fixed {
		return "fixed"
	}
	if !had && pc.Old == 0 {
		return "initial"
	}
	if !had {
		return "recomputed"
	}
	type move struct {
		name  string
		delta float64
	}
	var moves []move
	for _, fn := range factorNames {
		if d := fn.get(pc.Factors) - fn.get(prev); math.Abs(d) >= 0.5 {
			moves = append(moves, move{fn.name, d})
		}
	}
	if len(moves) == 0 {
		return "rounding"
	}
	slices.SortStableFunc(moves, func(a, b move) int { return cmp.Compare(math.Abs(b.delta), math.Abs(a.delta)) })
	parts := make([]string, len(moves))
	for i, m := range moves {
		sign := "+"
		if m.delta < 0 {
			sign = "-"
		}
		parts[i] = m.name + sign + formatPoints(math.Abs(m.delta))
	}
	return strings.Join(parts, ",")
}

func formatPoints(v float64) string {
	return strings.TrimRight(strings.TrimRight(strconv.FormatFloat(v, 'f', 1, 64), "0"), ".")
}

// pruneAudit deletes audit rows past the retention, at most hourly, and
// forgets the factors of jobs no longer pending.
func (c *Controller) pruneAudit(b *batch, now time.Time) {
	if now.Sub(c.live.lastPrune) < auditPruneEvery {
		return
	}
	c.live.lastPrune = now
	for id := range c.live.factors {
		if r := c.jobs[id]; r == nil || !r.pending() {
			delete(c.live.factors, id)
		}
	}
	cut := unix(now.Add(-c.auditRetention()))
	b.persist(c.store.Enqueue(func(tx *store.Tx) error { return tx.PruneAudit(cut) }))
}

// handlePriorities is sprio: the current factors of pending jobs, or with
// History the audit trail of the jobs asked for.
func (c *Controller) handlePriorities(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var q api.PrioQuery
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	out := &api.PrioResponse{Now: unix(c.now()), Weights: c.priorityWeights()}
	if q.History {
		if len(q.JobIDs) == 0 {
			return nil, api.Errorf(api.CodeInvalidJobID, "--history needs -j with the jobs to show")
		}
		rows, err := c.store.PriorityAudit(q.JobIDs, 100000)
		if err != nil {
			return nil, api.Errorf(api.CodeInternal, "%v", err)
		}
		for _, r := range rows {
			if c.jobHiddenFrom(id, r.JobID) { // privatedata.go
				continue
			}
			pa := api.PriorityAudit{JobID: r.JobID, Time: r.Time, Old: r.Old, New: r.New, Reason: r.Reason}
			json.Unmarshal(r.Factors, &pa.Factors)
			out.History = append(out.History, pa)
		}
		return out, nil
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, jid := range c.order {
		r := c.jobs[jid]
		if r == nil || !prioListed(r, out.Now) || !prioMatches(&q, r) || !c.canSee(id, r) {
			continue
		}
		jp := api.JobPriority{JobID: r.ID, Partition: r.St.Partition, User: r.Req.UserName, Account: r.St.Account,
			QOS: r.Req.QOS, Priority: r.St.Priority, Nice: r.St.Nice}
		if r.plan.Partition != "" {
			jp.Partition = r.plan.Partition
		}
		if r.plan.Factors != nil {
			jp.Factors = *r.plan.Factors
		}
		out.Jobs = append(out.Jobs, c.prioRows(&q, r, jp)...)
	}
	return out, nil
}

func prioMatches(q *api.PrioQuery, r *jobRecord) bool {
	if len(q.JobIDs) > 0 && !slices.Contains(q.JobIDs, r.ID) && !slices.Contains(q.JobIDs, r.St.ArrayJobID) {
		return false
	}
	if len(q.Users) > 0 && !slices.Contains(q.Users, r.Req.UserName) && !slices.Contains(q.Users, strconv.FormatUint(uint64(r.Req.UserID), 10)) {
		return false
	}
	return len(q.Partitions) == 0 || slices.ContainsFunc(r.St.Partitions, func(p string) bool { return slices.Contains(q.Partitions, p) })
}

// priorityWeights are the configured weights sprio -w shows.
func (c *Controller) priorityWeights() api.PriorityWeights {
	conf := c.confNow().conf
	w := api.PriorityWeights{Age: float64(conf.PriorityWeightAge), Fairshare: float64(conf.PriorityWeightFairshare),
		JobSize: float64(conf.PriorityWeightJobSize), Partition: float64(conf.PriorityWeightPartition),
		QOS: float64(conf.PriorityWeightQOS), Compensation: conf.PriorityWeightCompensation}
	for i := range conf.Partitions {
		w.AgingCap = max(w.AgingCap, conf.Partitions[i].AgingCap)
	}
	return w
}
