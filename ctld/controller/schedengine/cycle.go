package schedengine

import (
	"errors"
	"time"

	"github.com/loamhpc/loam/ctld/controller"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/cluster"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/sched"
)

// Cycle implements controller.Engine: advance usage, run sched.Cycle on a
// snapshot, apply the plan to the cluster (which re-checks every start)
// and report what it decided.
func (e *Engine) Cycle(now time.Time) *controller.CycleResult {
	e.cl.Advance(now)
	plan := e.sched.Cycle(e.cl.Snapshot(now))
	acts, err := e.cl.ApplyPlan(plan)
	res := &controller.CycleResult{Now: now}
	if err != nil {
		res.Skipped = unjoin(err)
	}
	for _, a := range acts {
		switch a.Kind {
		case cluster.ActLaunch:
			res.Launches = append(res.Launches, e.launch(a))
		case cluster.ActPreempt:
			res.Preempts = append(res.Preempts, preempt(a))
		}
	}
	for _, pc := range plan.Priorities {
		res.Priorities = append(res.Priorities, controller.PriorityInfo{JobID: uint32(pc.Job), Old: pc.Old, New: pc.New, Factors: apiFactors(pc.Factors), Fixed: pc.Fixed})
	}
	for _, p := range plan.Pending {
		r, desc := reason(p.Reason)
		// This cycle's factors, for sprio, whether or not the integer
		// priority changed.
		f := apiFactors(p.Factors)
		res.Pending = append(res.Pending, controller.PendingInfo{JobID: uint32(p.Job), Reason: r, Desc: desc,
			EstStart: p.EstStart, Position: p.Position, Partition: p.Partition, Priority: p.Priority, Factors: &f})
	}
	res.Reservations = e.reservations()
	summarize(res, plan)
	return res
}

func (e *Engine) launch(a cluster.Action) controller.Launch {
	return controller.Launch{JobID: uint32(a.Job), ArrayJobID: uint32(a.ArrayJob), TaskIndex: a.TaskIndex,
		Partition: a.Partition, Alloc: fromSched(a.Alloc), Limit: a.Limit}
}

func preempt(a cluster.Action) controller.Preempt {
	why := map[sched.PreemptReason]string{sched.PreemptUrgent: "urgent", sched.PreemptReclaim: "reclaim", sched.PreemptDeadlock: "deadlock"}[a.Reason]
	return controller.Preempt{JobID: uint32(a.Job), Beneficiary: uint32(a.Beneficiary), Requeue: a.Mode == sched.PreemptRequeue,
		Grace: a.Grace, Deadline: a.Deadline, Reason: why}
}

func apiFactors(f sched.PriorityFactors) api.PriorityFactors {
	return api.PriorityFactors{Age: f.Age, Fairshare: f.Fairshare, JobSize: f.JobSize, Partition: f.Partition,
		QOS: f.QOS, Aging: f.Aging, Compensation: f.Compensation, Nice: f.Nice, Site: f.Site}
}

// reservations reports the live reservations with their timeouts.
func (e *Engine) reservations() []controller.ReservationInfo {
	var out []controller.ReservationInfo
	for _, r := range e.cl.Reservations() {
		ri := controller.ReservationInfo{JobID: uint32(r.Job), Partition: r.Partition, Created: r.Created,
			PlannedStart: r.PlannedStart, Held: fromSched(r.Alloc), Awaiting: fromSched(r.Awaiting)}
		if p, ok := e.conf.Partition(r.Partition); ok && p.ReservationTimeout > 0 {
			ri.Expires = r.Created.Add(p.ReservationTimeout)
		}
		out = append(out, ri)
	}
	return out
}

// Estimate implements controller.Engine: the job is added, one cycle is
// computed without applying it (ignoring tenant and user limits for it,
// willrun.go), and the job is taken out again.
func (e *Engine) Estimate(j *controller.EngineJob, now time.Time) (controller.Estimate, error) {
	single := *j
	single.ArrayTasks, single.Throttle, single.Hold = nil, 0, controller.NotHeld
	s, err := e.spec(&single)
	if err != nil {
		return controller.Estimate{}, err
	}
	if err := e.cl.Submit(s); err != nil {
		return controller.Estimate{}, err
	}
	defer e.cl.Cancel(s.ID)
	e.cl.Advance(now)
	plan := e.willRunPlan(s.ID, now)
	for _, st := range plan.Starts {
		if st.Job == s.ID {
			return controller.Estimate{Start: now, Partition: st.Partition, Alloc: fromSched(st.Alloc)}, nil
		}
	}
	for _, p := range plan.Pending {
		if p.Job == s.ID {
			r, _ := reason(p.Reason)
			est := controller.Estimate{Start: p.EstStart, Partition: p.Partition, Reason: r}
			for _, rv := range plan.Reservations {
				if rv.Reservation.Job == s.ID {
					est.Alloc = fromSched(rv.Reservation.Alloc)
				}
			}
			return est, nil
		}
	}
	return controller.Estimate{Reason: job.ReasonResources}, nil
}

func unjoin(err error) []error {
	var j interface{ Unwrap() []error }
	if errors.As(err, &j) {
		return j.Unwrap()
	}
	return []error{err}
}
