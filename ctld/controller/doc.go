// Package controller is loam-ctld: it holds the live jobs and nodes in
// memory, persists every accepted change to the store before answering,
// serves the JSON API (pkg/api) on TCP and a Unix socket, drives the
// scheduling engine (pkg/cluster over pkg/sched) and dispatches launches
// and signals to the node daemons.
//
// # Order of effects
//
// A request mutates memory and enqueues its store change while holding the
// controller's lock, so the store commits changes in the order memory made
// them; it is answered only after the commit (persist BEFORE acknowledge).
// A scheduling cycle does the same with its plan, and only after that
// commit sends launches and signals to node daemons (persist BEFORE
// dispatch). A launch that fails is forgotten: the job pends again.
//
// # Job states
//
//	submit --> PENDING --cycle--> RUNNING --node reports end--> COMPLETED, FAILED,
//	              |                  |                            TIMEOUT, OUT_OF_MEMORY
//	              | cancel           | cancel / time limit / preempt
//	              v                  v
//	          CANCELLED          COMPLETING --node reports end--> CANCELLED, TIMEOUT,
//	                                 |                            PREEMPTED, DEADLINE
//	                                 +--requeue / preempt(requeue)--> PENDING (Restarts+1)
//	node silent past SlurmdTimeout: RUNNING --> NODE_FAIL, or PENDING when requeueable
//
// Finished jobs stay in memory (and the live table) for MinJobAge, then
// only in accounting.
//
// # Clock
//
// Every time the controller uses comes from Controller.now (loop.go), the
// wall clock in loam-ctld and a fake in tests.
package controller
