package schedengine

import (
	"github.com/loamhpc/loam/ctld/controller"
	"github.com/loamhpc/loam/pkg/sched"
)

// dropReasons spell sched's reservation drop reasons for the controller.
var dropReasons = map[sched.DropReason]string{
	sched.DropStarted: controller.DropStarted, sched.DropTimeout: controller.DropTimeout,
	sched.DropDeadlock: controller.DropDeadlock, sched.DropGone: controller.DropGone,
	sched.DropDisplaced: controller.DropDisplaced, sched.DropInfeasible: controller.DropInfeasible,
	sched.DropWindow: controller.DropWindow,
}

// summarize copies what metrics and history read from the plan: the
// fragmentation rate, the pass's counts and the reservations created and
// dropped.
func summarize(res *controller.CycleResult, plan *sched.Plan) {
	res.Fragmentation = plan.Fragmentation
	s := plan.Stats
	res.Stats = controller.CycleStats{Considered: s.Considered, Started: s.Started, Backfilled: s.Backfilled,
		Reservations: s.Reservations, Preempted: s.Preempted, Deadlocks: s.Deadlocks}
	for _, rc := range plan.Reservations {
		ch := controller.ResvChange{JobID: uint32(rc.Reservation.Job), Partition: rc.Reservation.Partition}
		switch rc.Action {
		case sched.ReserveCreate:
			ch.Created = true
		case sched.ReserveDrop:
			ch.Reason = dropReasons[rc.Reason]
		default:
			continue
		}
		res.ResvChanges = append(res.ResvChanges, ch)
	}
}
