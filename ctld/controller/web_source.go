package controller

import (
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/loamhpc/loam/ctld/web"
	"github.com/loamhpc/loam/pkg/auth"
)

// webSource feeds the dashboard: live state under the read lock, history
// from the history database (never under the lock).
type webSource struct{ o *observer }

// queueRowsMax bounds the rows one partition shows.
const queueRowsMax = 200

func (s webSource) Now() time.Time      { return s.o.c.now() }
func (s webSource) ClusterName() string { return s.o.c.confNow().conf.ClusterName }

func (s webSource) PeerViewer(r *http.Request) (web.Viewer, bool) {
	p, ok := auth.PeerFrom(r.Context())
	if !ok {
		return web.Viewer{}, false
	}
	id := s.o.c.users.identity(p.UID, p.GID, s.o.c.now())
	return web.Viewer{UID: id.UID, User: id.User, Admin: s.o.c.isOperator(id)}, true
}

func (s webSource) ViewerFor(uid uint32, user string) web.Viewer {
	return web.Viewer{UID: uid, User: user, Admin: uid == 0 || uid == s.o.c.confNow().slurmUID}
}

func (s webSource) Overview(v web.Viewer) web.Overview {
	c := s.o.c
	c.mu.RLock()
	u := c.usageLocked()
	ov := web.Overview{GPUs: u.gpus, Nodes: u.nodes, Fragmentation: s.o.lastFrag, Tenants: u.tenants,
		RunRatio: s.o.est.stats().Ratio, Mine: c.ownPending(v.UID, u, 50)}
	c.mu.RUnlock()
	waits := s.meanWaits(24 * time.Hour)
	for _, p := range c.confNow().conf.Partitions {
		pn := u.parts[p.Name]
		ov.Partitions = append(ov.Partitions, web.PartitionUsage{Name: p.Name, Pending: pn.pending, Running: pn.running,
			GPUs: pn.gpus, GPUsUsed: pn.gpusUsed, MeanWait: waits[p.Name]})
	}
	if v.Admin {
		items, _ := s.o.suggestions()
		ov.Suggestions = len(items)
	}
	return ov
}

// ownPending lists up to limit pending jobs of uid in queue order (c.mu
// held); u gives each partition's queue length.
func (c *Controller) ownPending(uid uint32, u *usageNow, limit int) []web.QueueRow {
	t := &topJobs{limit: limit}
	for _, r := range c.jobs {
		if r.Req.UserID == uid && r.pending() {
			t.offer(r)
		}
	}
	var out []web.QueueRow
	for _, r := range t.sorted() {
		of := 0
		if pn := u.parts[queuePartition(r)]; pn != nil {
			of = pn.maxPos
		}
		out = append(out, c.queueRow(r, of))
	}
	return out
}

// meanWaits is each partition's mean wait of the jobs started over span.
func (s webSource) meanWaits(span time.Duration) map[string]time.Duration {
	out := map[string]time.Duration{}
	h := s.o.hist
	if h == nil {
		return out
	}
	now := s.Now()
	from := now.Add(-span)
	res := h.Pick(from, now, 48)
	started, err1 := h.Totals(seriesStarted, res, from.Truncate(res.Width()), now.Add(time.Minute))
	sums, err2 := h.Totals(seriesWaitSum, res, from.Truncate(res.Width()), now.Add(time.Minute))
	if err1 != nil || err2 != nil {
		return out
	}
	for p, b := range started {
		if b.Sum > 0 {
			out[p] = time.Duration(sums[p].Sum / b.Sum * float64(time.Second))
		}
	}
	return out
}

func (s webSource) Queue(v web.Viewer, f web.QueueFilter) web.QueueView {
	c := s.o.c
	view := web.QueueView{Filter: f, OnlyOwn: !v.Admin}
	for _, p := range c.confNow().conf.Partitions {
		view.Names = append(view.Names, p.Name)
	}
	uid, byUser := v.UID, !v.Admin
	if v.Admin && f.User != "" {
		if u, ok := c.users.uidOf(f.User); ok {
			uid, byUser = u, true
		} else {
			uid, byUser = math.MaxUint32, true // nobody's jobs
		}
	}
	c.mu.RLock()
	parts := c.pendingRows(func(r *jobRecord) bool {
		return (!byUser || r.Req.UserID == uid) && (f.Partition == "" || queuePartition(r) == f.Partition)
	}, queueRowsMax)
	c.mu.RUnlock()
	for _, name := range view.Names {
		if f.Partition != "" && name != f.Partition {
			continue
		}
		if qp, ok := parts[name]; ok {
			view.Partitions = append(view.Partitions, *qp)
		} else {
			view.Partitions = append(view.Partitions, web.QueuePartition{Name: name})
		}
	}
	return view
}

// pendingRows lists the pending jobs keep selects, per partition in
// position order, at most limit rows each; Pending counts every pending
// job of the partition (c.mu held). One pass over the jobs keeps each
// partition's first limit jobs in a bounded heap: O(jobs x log limit).
func (c *Controller) pendingRows(keep func(*jobRecord) bool, limit int) map[string]*web.QueuePartition {
	of, count := map[string]int{}, map[string]int{}
	tops := map[string]*topJobs{}
	for _, r := range c.jobs {
		if !r.pending() {
			continue
		}
		part := queuePartition(r)
		of[part] = max(of[part], r.plan.Position)
		count[part] += weight(r)
		if !keep(r) {
			continue
		}
		t := tops[part]
		if t == nil {
			t = &topJobs{limit: limit}
			tops[part] = t
		}
		t.offer(r)
	}
	out := map[string]*web.QueuePartition{}
	for part, t := range tops {
		qp := &web.QueuePartition{Name: part, Pending: count[part], More: t.seen - len(t.h)}
		for _, r := range t.sorted() {
			qp.Rows = append(qp.Rows, c.queueRow(r, of[part]))
		}
		out[part] = qp
	}
	return out
}

// topJobs keeps the limit first jobs by queue position (a max-heap on
// the position, so the worst kept job is at the top and leaves first).
type topJobs struct {
	limit int
	seen  int
	h     []*jobRecord
}

func queueBefore(a, b *jobRecord) bool {
	if pa, pb := posKey(a), posKey(b); pa != pb {
		return pa < pb
	}
	return a.ID < b.ID
}

func (t *topJobs) offer(r *jobRecord) {
	t.seen++
	switch {
	case len(t.h) < t.limit:
		t.h = append(t.h, r)
		for i := len(t.h) - 1; i > 0; {
			p := (i - 1) / 2
			if !queueBefore(t.h[p], t.h[i]) {
				break
			}
			t.h[p], t.h[i] = t.h[i], t.h[p]
			i = p
		}
	case t.limit > 0 && queueBefore(r, t.h[0]):
		t.h[0] = r
		for i := 0; ; {
			l, big := 2*i+1, i
			if l < len(t.h) && queueBefore(t.h[big], t.h[l]) {
				big = l
			}
			if l+1 < len(t.h) && queueBefore(t.h[big], t.h[l+1]) {
				big = l + 1
			}
			if big == i {
				break
			}
			t.h[i], t.h[big] = t.h[big], t.h[i]
			i = big
		}
	}
}

// sorted returns the kept jobs in queue order.
func (t *topJobs) sorted() []*jobRecord {
	out := slices.Clone(t.h)
	slices.SortFunc(out, func(a, b *jobRecord) int {
		if queueBefore(a, b) {
			return -1
		}
		return 1
	})
	return out
}

// queuePartition is the partition a pending job waits in: the one the
// plan placed it in, else the first it asked for.
func queuePartition(r *jobRecord) string {
	if r.plan.Partition != "" || len(r.St.Partitions) == 0 {
		return r.plan.Partition
	}
	return r.St.Partitions[0]
}

// posKey orders jobs without a position (held, not yet planned) last.
func posKey(r *jobRecord) int {
	if r.plan.Position == 0 {
		return math.MaxInt
	}
	return r.plan.Position
}

func (c *Controller) queueRow(r *jobRecord, of int) web.QueueRow {
	q := r.Req
	reason := string(r.plan.Reason)
	if r.St.Hold != NotHeld || reason == "" {
		reason = string(r.St.Reason)
	}
	return web.QueueRow{JobID: jobLabel(r), Name: q.Name, User: q.UserName, Tenant: r.St.Account, Partition: queuePartition(r),
		State: string(r.St.State), Reason: reason, Position: r.plan.Position, Of: of, Priority: r.St.Priority,
		GPUs: requestedGPUs(q, max(q.MinNodes, 1)), Submit: fromUnix(r.St.Submit),
		EstStart: c.obs.est.startOf(r), Planned: r.plan.EstStart}
}

// jobLabel prints a job as squeue does: 12, 12_3, or 12_[1-5] for an
// array's pending tasks.
func jobLabel(r *jobRecord) string {
	switch {
	case r.arrayRecord():
		return fmt.Sprintf("%d_[%s]", r.St.ArrayJobID, r.St.ArrayPending)
	case r.St.ArrayJobID != 0 && r.St.ArrayTask >= 0:
		return fmt.Sprintf("%d_%d", r.St.ArrayJobID, r.St.ArrayTask)
	}
	return strconv.FormatUint(uint64(r.ID), 10)
}

func (s webSource) Reservations(v web.Viewer) web.ResvView {
	c := s.o.c
	var out web.ResvView
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, id := range c.resvIDs {
		r := c.jobs[id]
		if r == nil || r.resv == nil {
			continue
		}
		if !v.Admin && r.Req.UserID != v.UID {
			out.Hidden++
			continue
		}
		rv := r.resv
		row := web.ResvRow{JobID: jobLabel(r), User: r.Req.UserName, Partition: rv.Partition, Created: rv.Created,
			Planned: rv.PlannedStart, Expires: rv.Expires}
		if sr := c.reservationOf(r); sr != nil {
			row.Nodes = sr.Nodes
		}
		for _, a := range rv.Held {
			row.Held += len(a.GPUs)
		}
		for _, a := range rv.Awaiting {
			row.Awaiting += len(a.GPUs)
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

func (s webSource) Suggestions(v web.Viewer) web.SuggestView {
	items, at := s.o.suggestions()
	out := web.SuggestView{Generated: at, Window: suggestWindow}
	for _, x := range items {
		ws := web.Suggestion{Rule: x.Rule, Subject: x.Subject, File: x.File, Line: x.Line, Key: x.Key, From: x.From, To: x.To,
			Action: x.Action, Why: x.Why}
		for _, e := range x.Evidence {
			ws.Evidence = append(ws.Evidence, web.Point{At: e.Day, Value: e.Value})
		}
		out.Items = append(out.Items, ws)
	}
	return out
}
