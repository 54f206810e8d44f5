package controller

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/store"
)

// Reservations (R8-R10) are decided by the scheduler and applied by the
// engine; the controller shows them: the pending reason of a job that
// holds one, scontrol show reservation in Slurm's format (each named
// loam_<jobid>), and the job's event log, where every creation and every
// drop (timeout, deadlock, ...) is recorded.

// ReasonResourcesReserved (Loam) is the pending reason of a job waiting
// for resources that the scheduler holds a reservation for: Slurm would
// show Resources, which does not say that the cluster is keeping nodes
// for it.
const ReasonResourcesReserved job.Reason = "ResourcesReserved"

// resvPrefix names scheduler reservations: loam_<jobid>.
const resvPrefix = "loam_"

// markReserved gives a job holding a reservation its reason.
func markReserved(r *jobRecord) {
	if r.pending() && (r.plan.Reason == job.ReasonResources || r.plan.Reason == job.ReasonPriority) {
		r.plan.Reason, r.plan.Desc = ReasonResourcesReserved, ""
	}
}

// logReservations records the reservations a cycle created and dropped in
// the jobs' event logs, and logs drops for timeout and deadlock.
func (c *Controller) logReservations(b *batch, res *CycleResult) {
	if len(res.ResvChanges) == 0 {
		return
	}
	at := unix(res.Now)
	type entry struct {
		id     uint32
		kind   string
		detail []byte
	}
	var entries []entry
	for _, ch := range res.ResvChanges {
		switch {
		case ch.Created:
			entries = append(entries, entry{ch.JobID, "resv_create", fmt.Appendf(nil, `{"reservation":"%s%d","partition":%q}`, resvPrefix, ch.JobID, ch.Partition)})
		case ch.Reason != DropStarted:
			entries = append(entries, entry{ch.JobID, "resv_drop", fmt.Appendf(nil, `{"reservation":"%s%d","reason":%q}`, resvPrefix, ch.JobID, ch.Reason)})
			if ch.Reason == DropTimeout || ch.Reason == DropDeadlock {
				c.log.WithField("job_id", ch.JobID).WithField("partition", ch.Partition).WithField("reason", ch.Reason).
					Info("scheduler reservation dropped")
			}
		}
	}
	if len(entries) == 0 {
		return
	}
	b.persist(c.store.Enqueue(func(tx *store.Tx) error {
		for _, e := range entries {
			if err := tx.AddJobEvent(e.id, at, e.kind, e.detail); err != nil {
				return err
			}
		}
		return nil
	}))
}

// handleReservations is scontrol show reservation: the reservations the
// scheduler holds now.
func (c *Controller) handleReservations(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var q api.ResvQuery
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := &api.ReservationsResponse{Now: unix(c.now()), Reservations: []api.Reservation{}}
	ids := slices.Clone(c.resvIDs)
	slices.Sort(ids)
	for _, jid := range ids {
		r := c.jobs[jid]
		if r == nil || r.resv == nil || !c.seesJobResv(id, r) {
			continue
		}
		rv := c.reservationView(r)
		if len(q.Names) > 0 && !slices.Contains(q.Names, rv.Name) {
			continue
		}
		out.Reservations = append(out.Reservations, rv)
	}
	return out, nil
}

// reservationView is r's reservation in Slurm's terms.
func (c *Controller) reservationView(r *jobRecord) api.Reservation {
	rv := r.resv
	v := api.Reservation{Name: resvPrefix + strconv.FormatUint(uint64(r.ID), 10), JobID: r.ID, Partition: rv.Partition,
		User: r.Req.UserName, Account: r.St.Account, StartTime: unix(rv.Created), PlannedStart: unix(rv.PlannedStart),
		Expires: unix(rv.Expires), Held: rv.Held, Awaiting: rv.Awaiting}
	v.EndTime = v.Expires
	if v.EndTime == 0 || (v.PlannedStart != 0 && v.PlannedStart < v.EndTime) {
		v.EndTime = v.PlannedStart
	}
	var names []string
	for _, list := range [][]api.NodeAllocation{rv.Held, rv.Awaiting} {
		for _, a := range list {
			if !slices.Contains(names, a.Node) {
				names = append(names, a.Node)
			}
			v.CPUs += a.CPUs
			v.GPUs += len(a.GPUs)
			v.MemMB += a.Memory
		}
	}
	slices.SortFunc(names, hostlist.Compare)
	v.Nodes, v.NodeCount = hostlist.Compress(names), len(names)
	return v
}

// handleJobLog returns one job's event log (submit, preemption, requeue,
// reservations).
func (c *Controller) handleJobLog(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var q api.JobLogQuery
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	evs, err := c.store.JobEvents(q.JobID)
	if err != nil {
		return nil, api.Errorf(api.CodeInternal, "%v", err)
	}
	c.mu.RLock()
	_, live := c.jobs[q.JobID]
	c.mu.RUnlock()
	if len(evs) == 0 && !live && !c.jobKnownLocked(q.JobID) || c.jobHiddenFrom(id, q.JobID) {
		return nil, api.NewError(api.CodeInvalidJobID)
	}
	out := &api.JobLogResponse{JobID: q.JobID, Events: []api.JobEntry{}}
	for _, e := range evs {
		out.Events = append(out.Events, api.JobEntry{Time: e.Time, Kind: e.Kind, Detail: strings.TrimSpace(string(e.Detail))})
	}
	return out, nil
}

// jobKnownLocked is jobKnown taking the lock.
func (c *Controller) jobKnownLocked(id uint32) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.jobKnown(id, -1)
}
