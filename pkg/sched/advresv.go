package sched

import (
	"slices"
	"time"
)

// Administrators' advance reservations (scontrol create reservation), as
// Slurm runs them: from Start to End the reservation's nodes serve only
// the jobs submitted into it (--reservation). Outside it a job may still
// use them when it ends, by its time limit, before the window starts; a
// job inside it runs only on its nodes and only once it has started.
// Planning treats a window like a job that holds the whole node from
// Start to End, so backfill and Loam's own reservations plan around it.
// A snapshot without admin reservations takes none of these paths.

// AdminReservation is an administrator's advance reservation.
type AdminReservation struct {
	Name  string
	Start time.Time
	End   time.Time
	// Nodes are node names (host lists are expanded).
	Nodes []string
	// Maint marks a maintenance window (Slurm's MAINT flag): only the
	// pending reason a blocked job gets differs.
	Maint bool
}

// Pending reasons of admin reservations, as Slurm spells them.
const (
	// ReasonReservation: the job's reservation has not started yet.
	ReasonReservation Reason = "Reservation"
	// ReasonReservationDeleted: the job's reservation no longer exists.
	ReasonReservationDeleted Reason = "ReservationDeleted"
	// ReasonNodeReserved: the nodes that could run the job are in other
	// jobs' reservation windows (the peer's text for a plain reservation
	// and for a -w node in a maintenance one).
	ReasonNodeReserved Reason = "ReqNodeNotAvail, May be reserved for other job"
	// ReasonNodeMaint: only nodes in maintenance windows could run it.
	ReasonNodeMaint Reason = "ReqNodeNotAvail, Reserved for maintenance"
)

// advState is the cycle's view of the admin reservations.
type advState struct {
	wins []advWin
	// byNode lists, per node index, the windows covering the node; nil
	// when no window is current or future, which every hook tests first.
	byNode [][]int32
	// job is the window of the job being placed: its index+1, 0 none.
	job int32
}

// advWin is one admin reservation in ticks and node indices.
type advWin struct {
	name       string
	start, end tick
	maint      bool
	nodes      []int32 // sorted
}

func (w *advWin) has(ni int32) bool {
	_, ok := slices.BinarySearch(w.nodes, ni)
	return ok
}

// loadAdv indexes the snapshot's admin reservations that have not ended.
// Unknown node names are skipped, as everywhere the snapshot names nodes.
func (c *cycle) loadAdv() {
	c.adv = advState{}
	for _, ar := range c.snap.AdminReservations {
		w := advWin{name: ar.Name, start: toTick(ar.Start), end: toTick(ar.End), maint: ar.Maint}
		if w.end <= c.now || w.end <= w.start {
			continue
		}
		for _, name := range expandNames(ar.Nodes) {
			if ni, ok := c.nodeIdx[name]; ok {
				w.nodes = append(w.nodes, ni)
			}
		}
		slices.Sort(w.nodes)
		w.nodes = slices.Compact(w.nodes)
		c.adv.wins = append(c.adv.wins, w)
	}
	if len(c.adv.wins) == 0 {
		return
	}
	c.adv.byNode = make([][]int32, len(c.nodes))
	for wi := range c.adv.wins {
		for _, ni := range c.adv.wins[wi].nodes {
			c.adv.byNode[ni] = append(c.adv.byNode[ni], int32(wi))
		}
	}
}

// advOf is the index+1 of the window job j was submitted into, 0 when it
// names none (or one that no longer exists).
func (c *cycle) advOf(j *jobInfo) int32 {
	if j.p.Reservation == "" {
		return 0
	}
	for wi := range c.adv.wins {
		if c.adv.wins[wi].name == j.p.Reservation {
			return int32(wi) + 1
		}
	}
	return 0
}

// advClassify gives a job submitted into a reservation the reason it
// cannot be considered now, if any: its reservation is gone (it can never
// run as things stand), or has not started.
func (c *cycle) advClassify(j *jobInfo) {
	wi := c.advOf(j)
	switch {
	case wi == 0:
		j.reason, j.noEst = ReasonReservationDeleted, true
	case c.adv.wins[wi-1].start > c.now:
		j.reason = ReasonReservation
	}
}

// advAllows reports whether node ni may run, from now until end, the job
// being placed (cycle.adv.job): a member of a window only on that
// window's nodes; on any window's node only a job that ends before the
// window starts.
func (c *cycle) advAllows(ni int32, end tick) bool {
	own := c.adv.job - 1
	if own >= 0 && !c.adv.wins[own].has(ni) {
		return false
	}
	for _, wi := range c.adv.byNode[ni] {
		w := &c.adv.wins[wi]
		if wi != own && w.start < end && w.end > c.now {
			return false
		}
	}
	return true
}

// advReady moves t, when node ni is ready for job j by the running jobs,
// past the windows it may not use: a member waits for its window's start
// and cannot start after its end; anyone else starts only where its run
// [t, t+limit) misses every other window on the node. It returns never
// when the node can never serve j.
func (c *cycle) advReady(j *jobInfo, ni int32, t tick) tick {
	own := c.advOf(j) - 1
	if own >= 0 {
		w := &c.adv.wins[own]
		if !w.has(ni) {
			return never
		}
		t = max(t, w.start)
		if t >= w.end {
			return never
		}
	}
	for moved := true; moved && t != never; {
		moved = false
		for _, wi := range c.adv.byNode[ni] {
			w := &c.adv.wins[wi]
			if wi != own && t < w.end && w.start < after(t, j.limit) {
				t, moved = w.end, true
			}
		}
	}
	if own >= 0 && t >= c.adv.wins[own].end {
		return never
	}
	return t
}

// advBlockedReason gives a job that waits for resources the reason Slurm
// shows when admin windows, not running jobs, keep it off the nodes: a
// -w node in a window, or too few nodes of its partition outside one for
// its run. "" when windows are not what stops it.
func (c *cycle) advBlockedReason(j *jobInfo) Reason {
	if c.adv.byNode == nil || j.prim < 0 || c.advOf(j) != 0 {
		return ""
	}
	end := after(c.now, j.limit)
	d := j.dem
	for _, ni := range d.nodeList {
		if !c.advAllows(ni, end) {
			return ReasonNodeReserved
		}
	}
	free, maint := 0, false
	for _, ni := range c.parts[j.prim].nodes {
		n := &c.nodes[ni]
		if !n.schedulable() || !d.nodeStatic(n, ni, d.lg, d.lc, d.lm) {
			continue
		}
		if c.advAllows(ni, end) {
			free++
			continue
		}
		for _, wi := range c.adv.byNode[ni] {
			maint = maint || c.adv.wins[wi].maint
		}
	}
	switch {
	case free >= d.n:
		return ""
	case maint:
		return ReasonNodeMaint
	}
	return ReasonNodeReserved
}

// advReasons runs after the pass: jobs that wait for resources that admin
// windows keep from them get Slurm's ReqNodeNotAvail reasons.
func (c *cycle) advReasons() {
	c.adv.job = 0
	if c.adv.byNode == nil {
		return
	}
	for i := range c.jobs {
		j := &c.jobs[i]
		if j.starts > 0 || (j.reason != ReasonResources && j.reason != ReasonPriority) {
			continue
		}
		if r := c.advBlockedReason(j); r != "" {
			j.reason = r
		}
	}
}

// advEstimates corrects the estimated starts that the free-capacity
// profile, which knows nothing of admin windows, gives: a job waiting for
// its reservation starts no earlier than the window; a job the windows
// keep off its nodes no earlier than the last of those windows ends.
func (c *cycle) advEstimates() {
	if c.adv.byNode == nil {
		return
	}
	for i := range c.jobs {
		j := &c.jobs[i]
		if j.est == 0 || j.starts > 0 {
			continue
		}
		switch j.reason {
		case ReasonReservation:
			j.est = max(j.est, c.adv.wins[c.advOf(j)-1].start)
		case ReasonNodeReserved, ReasonNodeMaint:
			j.est = max(j.est, c.advBlockingEnd(j))
		}
	}
}

// advBlockingEnd is when the last window that keeps job j off a node of
// its partition ends.
func (c *cycle) advBlockingEnd(j *jobInfo) tick {
	end, last := after(c.now, j.limit), tick(0)
	nodes := c.parts[j.prim].nodes
	if len(j.dem.nodeList) > 0 {
		nodes = j.dem.nodeList // -w: only those nodes matter
	}
	for _, ni := range nodes {
		if c.advAllows(ni, end) {
			continue
		}
		for _, wi := range c.adv.byNode[ni] {
			last = max(last, c.adv.wins[wi].end)
		}
	}
	return last
}
