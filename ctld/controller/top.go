package controller

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// scontrol top, as slurmctld's job_set_top: each named job takes one of
// the highest priorities among its owner's pending jobs in the same
// partition, account and QOS, and the priority it gains is taken back
// from those others through their nice values; other users' jobs do not
// move. Only nice changes are kept (and the priorities shown until the
// next cycle): the scheduler recomputes priorities from their factors
// minus nice every cycle, so the order top sets holds as long as the
// factors do. A pinned job (fixed_priority.go) keeps the priority top
// gives it, pinned, as slurmctld keeps direct_set_prio.
//
// Who may: operators any job; a job's owner only when SchedulerParameters
// holds enable_user_top, as in Slurm.

// niceOffset is Slurm's NICE_OFFSET: slurmctld stores nice shifted by it
// in an unsigned 32-bit field.
const niceOffset = 0x80000000

// topEntry is one job in top's arithmetic.
type topEntry struct {
	id       uint32
	priority int64
	nice     int
}

// planTop is Slurm's arithmetic, in its 32-bit unsigned priorities:
// targets (in the order named) take the highest of all the priorities,
// each one below the one before when two are equal; what they gained is
// spread over the others (in submission order) as nice, none ending at or
// above the last target. It returns targets then others with their new
// priorities and nice values.
//
// The unsigned arithmetic is kept on purpose, since its results are what
// slurmctld shows: an other job that would fall below 0 wraps around, is
// set just below the last target instead (gaining priority), and the
// wrapped difference leaves the sum to spread hugely negative, so every
// later other job also ends just below the last target (checked against
// the peer in TestTopPlanMatchesThePeer).
func planTop(targets, others []topEntry) []topEntry {
	prios := make([]uint32, 0, len(targets)+len(others))
	for _, e := range targets {
		prios = append(prios, prio32(e.priority))
	}
	for _, e := range others {
		prios = append(prios, prio32(e.priority))
	}
	slices.SortFunc(prios, func(a, b uint32) int { return cmp.Compare(b, a) })
	out := make([]topEntry, 0, len(prios))
	var total int64
	var last uint32
	for i, t := range targets {
		next := prios[i]
		if i > 0 && next == last && last > 2 {
			next = last - 1 // no tie with the job named before
		}
		last = next
		dn := min(int64(storedNice(t.nice)), int64(next)-int64(prio32(t.priority)))
		total += dn
		out = append(out, topEntry{id: t.id, priority: int64(next), nice: addNice(t.nice, -dn)})
	}
	for i, o := range others {
		p := prio32(o.priority)
		d := total / int64(len(others)-i)
		next := uint32(int64(p) - d)
		if next >= last {
			next = last - 1
			d = int64(p - next)
		}
		total -= d
		out = append(out, topEntry{id: o.id, priority: int64(next), nice: addNice(o.nice, d)})
	}
	return out
}

// prio32 is a priority as slurmctld holds it.
func prio32(p int64) uint32 { return uint32(min(max(p, 0), math.MaxUint32)) }

// storedNice is nice as slurmctld stores it.
func storedNice(n int) uint32 { return uint32(int64(n) + niceOffset) }

// addNice adds d to nice in slurmctld's stored form, wrapping as it does.
func addNice(n int, d int64) int { return int(int64(storedNice(n)+uint32(d)) - niceOffset) }

// handleTop is scontrol top.
func (c *Controller) handleTop(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.TopRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	operator := c.isOperator(id)
	if !operator && !userTopEnabled(c.confNow().conf.SchedulerParameters.Raw) {
		return nil, api.Errorf(api.CodeAccessDenied, "top is reserved to operators unless SchedulerParameters has enable_user_top")
	}
	return c.inBatch(ctx, func(b *batch) (any, *api.Error) { return c.top(b, in.JobIDs, id, operator) })
}

// userTopEnabled reports whether SchedulerParameters lets owners use top.
func userTopEnabled(raw string) bool { return schedulerOption(raw, "enable_user_top") }

// schedulerOption reports whether SchedulerParameters (raw, as written)
// names option, the way slurmctld reads its flags (xstrcasestr): the word
// anywhere in the value, ignoring case.
func schedulerOption(raw, option string) bool {
	return strings.Contains(strings.ToLower(raw), option)
}

// top resolves the list, checks the named jobs as Slurm does, and applies
// planTop's nice values (c.mu held).
func (c *Controller) top(b *batch, list string, id auth.Identity, operator bool) (*api.TopResponse, *api.Error) {
	named, aerr := c.topTargets(list)
	if aerr != nil {
		return nil, aerr
	}
	targets, aerr := c.checkTopTargets(named, id, operator)
	if aerr != nil {
		return nil, aerr
	}
	others := c.topOthers(targets)
	entries := func(rs []*jobRecord) []topEntry {
		out := make([]topEntry, len(rs))
		for i, r := range rs {
			out[i] = topEntry{id: r.ID, priority: topPriority(r), nice: r.St.Nice}
		}
		return out
	}
	out := &api.TopResponse{Changes: []api.TopChange{}}
	for _, e := range planTop(entries(targets), entries(others)) {
		r := c.jobs[e.id]
		if e.nice == r.St.Nice && e.priority == r.St.Priority {
			continue
		}
		r.St.Nice, r.St.Priority = e.nice, e.priority
		if r.St.Pinned != 0 {
			r.St.Pinned = e.priority // slurmctld keeps direct_set_prio
		}
		if err := c.eng.Update(c.engineJob(r)); err != nil {
			return nil, api.Errorf(api.CodeInternal, "scheduler refused the new nice value of job %d: %v", r.ID, err)
		}
		b.persist(c.persistStatus(r))
		out.Changes = append(out.Changes, api.TopChange{JobID: jobLabel(r), Priority: e.priority, Nice: e.nice})
	}
	if len(out.Changes) > 0 {
		c.schedule()
	}
	return out, nil
}

// topTargets resolves "12,13_*,14_2" to records; any id that does not
// parse or names no job fails the whole list, as in Slurm.
func (c *Controller) topTargets(list string) ([]*jobRecord, *api.Error) {
	var out []*jobRecord
	for _, tok := range strings.Split(list, ",") {
		if tok == "" {
			continue // strtok skips empty fields
		}
		r := c.topRecord(tok)
		if r == nil {
			return nil, api.Errorf(api.CodeInvalidJobID, "no job %s", tok)
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, api.Errorf(api.CodeInvalidJobID, "no job ids given")
	}
	return out, nil
}

// topRecord finds the record one token names: "12" or "12_*" the job (an
// array's own record), "12_3" the record of array 12 holding task 3 (none
// when 12 is no array, as in Slurm).
func (c *Controller) topRecord(tok string) *jobRecord {
	idText, task, hasTask := strings.Cut(tok, "_")
	n, err := strconv.ParseUint(idText, 10, 32)
	if err != nil || n == 0 {
		return nil
	}
	jid := uint32(n)
	if !hasTask || task == "*" {
		return c.jobs[jid]
	}
	t, err := strconv.Atoi(task)
	if err != nil || t < 0 {
		return nil
	}
	ref := api.JobRef{JobID: jid, Tasks: []int{t}}
	for _, cid := range c.candidates(jid) {
		if r := c.jobs[cid]; r != nil && r.St.ArrayJobID == jid && refMatches(ref, r) {
			return r
		}
	}
	return nil
}

// checkTopTargets keeps the named jobs top may move, in Slurm's order of
// checks: a job of another user or one that may run in several
// partitions fails the request; a job no longer pending or held is
// skipped, and fails it only when no job is left; a repeated job counts
// once.
func (c *Controller) checkTopTargets(named []*jobRecord, id auth.Identity, operator bool) ([]*jobRecord, *api.Error) {
	var out []*jobRecord
	var skipped *api.Error
	for _, r := range named {
		switch {
		case !operator && r.Req.UserID != id.UID:
			return nil, api.Errorf(api.CodeAccessDenied, "job %d belongs to %s", r.ID, r.Req.UserName)
		case !r.pending():
			skipped = api.NewError(api.CodeJobNotPending)
		case len(r.St.Partitions) > 1:
			return nil, api.Errorf(api.CodePartConfigUnavailable, "job %d may run in several partitions (%s)", r.ID, strings.Join(r.St.Partitions, ","))
		case r.St.Hold != NotHeld:
			skipped = api.NewError(api.CodeJobHeld)
		case slices.Contains(out, r):
		default:
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, skipped
	}
	return out, nil
}

// topOthers are the jobs that pay for the targets: pending, not held,
// priority above 1 (lowering it further would hold them), one partition,
// and the first target's user, partition, account and QOS.
func (c *Controller) topOthers(targets []*jobRecord) []*jobRecord {
	first := targets[0]
	var out []*jobRecord
	for _, jid := range c.order {
		r := c.jobs[jid]
		if r == nil || !r.pending() || slices.Contains(targets, r) || len(r.St.Partitions) > 1 || topPriority(r) <= 1 ||
			r.Req.UserID != first.Req.UserID || r.St.Partition != first.St.Partition ||
			r.St.Account != first.St.Account || r.Req.QOS != first.Req.QOS {
			continue
		}
		out = append(out, r)
	}
	return out
}

// topPriority is the priority top reads: the last cycle's, 0 for a held
// job (Slurm's held jobs have priority 0).
func topPriority(r *jobRecord) int64 {
	if r.St.Hold != NotHeld {
		return 0
	}
	return r.St.Priority
}
