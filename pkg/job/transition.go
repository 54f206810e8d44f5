package job

import "fmt"

// transitions lists, for each state the controller enters, the states it may
// move to next. The diagram in doc.go draws the same table; change both.
var transitions = map[State][]State{
	Pending:     {Configuring, Running, Cancelled, Failed, Deadline, RequeueHold},
	Configuring: {Running, Cancelled, BootFail, NodeFail, Failed},
	Running: {Completing, Suspended, Requeued, Completed, Cancelled, Failed,
		Timeout, Preempted, NodeFail, OutOfMemory, Deadline},
	Suspended: {Running, Completing, Requeued, Cancelled, Preempted, NodeFail, Failed},
	Completing: {Completed, Cancelled, Failed, Timeout, Preempted, NodeFail,
		OutOfMemory, Deadline, Requeued},
	Requeued:    {Pending, RequeueHold},
	RequeueHold: {Pending, Cancelled},

	// An ended job comes back only through an explicit requeue (scontrol
	// requeue, a requeue on node failure, or preemption in REQUEUE mode).
	Completed:   {Requeued},
	Cancelled:   {Requeued},
	Failed:      {Requeued},
	Timeout:     {Requeued},
	Preempted:   {Requeued},
	NodeFail:    {Requeued},
	OutOfMemory: {Requeued},
	BootFail:    {Requeued},
	Deadline:    {Requeued},
}

// CanTransition reports whether a job may move from state from to state to.
func CanTransition(from, to State) bool {
	for _, s := range transitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// CheckTransition returns an error naming both states when the move from
// from to to is not allowed.
func CheckTransition(from, to State) error {
	if !CanTransition(from, to) {
		return fmt.Errorf("job state %s cannot change to %s", from, to)
	}
	return nil
}
