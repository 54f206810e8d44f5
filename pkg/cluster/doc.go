// Package cluster is the authoritative in-memory scheduling state shared by
// loam-ctld and the simulator: nodes and their free resources, pending and
// running jobs, array task counters, the reservations, cool-downs and
// priorities that sched.Cycle carries from one cycle to the next, and decayed
// usage. Both callers run the same loop:
//
//	event -> Submit/Cancel/End/Requeue/... -> Advance(now)
//	      -> plan := sched.New(cfg).Cycle(c.Snapshot(now))
//	      -> actions := c.ApplyPlan(plan) -> act on the actions
//
// In loam-ctld now is the wall clock and every event is persisted before it
// is applied here; in pkg/sim now comes from the event heap.
//
// The package is pure: no I/O, no clock, no goroutines, no map-order
// dependence. Time is always a parameter.
//
// # Job lifecycle (Assume/Forget)
//
// ApplyPlan re-checks every start against live state and then assumes it:
// the job is marked running and its resources are taken before the caller
// has launched anything, so the next cycle cannot hand them out twice. If
// the launch fails, Forget undoes the assumption.
//
//	          Submit                 Release
//	            |      Hold   +--------+  |
//	            v    -------> |  held  | -+
//	       +---------+ <----- +--------+
//	  +--> | pending | --Cancel--> (gone)
//	  |    +---------+
//	  |         | ApplyPlan: Start (assume: resources taken, Action Launch)
//	  |         v
//	  |    +---------+ --End-----------------------------> (gone)
//	  +----| running |
//	Forget +---------+ --ApplyPlan: Preemption (Action Preempt)
//	(launch   |  ^                |
//	 failed)  |  |                v
//	          |  |          +------------+ --End (ended on its own or
//	          |  |          | preempting |    cancel-mode victim)--> (gone)
//	          |  |          +------------+
//	          |  |                | Requeue(id, when, lostRun) after the grace
//	          |  +----------------+ window: back to pending, Restarts+1,
//	          |                     LostRun grows (priority compensation)
//	          +--> pending (no restart counted)
//
// Persist BEFORE dispatch: loam-ctld must make an Action durable before it
// sends it to a node daemon, and call Forget when dispatch fails.
//
// Administrative changes: Update replaces a pending job's request (keeping
// its priority and eligible time), CancelTasks removes pending tasks of an
// array, Restore re-inserts a job that was running when the controller
// stopped, and SetNextID moves the id counter past a restored job table.
//
// # Arrays
//
// A pending array is one record whose ArrayTasks counts its pending tasks.
// Each start of an array takes its lowest pending task index and gives it a
// new job id (from NextID), except the last task, which keeps the array's
// id, as Slurm does. A requeued or forgotten task pends as its own record and
// still counts against the array's %throttle.
//
// # Snapshots
//
// Snapshot aliases the cluster's own slices (it costs O(1) plus the usage
// and reservation lists), so a Snapshot is valid only until the next call
// that changes the cluster, and sched.Cycle must treat it as read-only. The
// order of Pending and Running is unspecified but deterministic; Cycle breaks
// ties by JobID only.
package cluster
