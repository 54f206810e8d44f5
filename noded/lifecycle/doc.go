// Package lifecycle decides when a running job is signalled and killed:
// its time limit, its --signal warning, and the controller's terminate
// orders (cancel, preemption with a grace window, requeue, node failure).
// It is pure: times come in as arguments, decisions go out as Actions, and
// the job supervisor carries them out and calls Tick at Next.
//
//	             Tick >= limit - warn        Tick >= limit
//	running ──────────────────────> running ─────────────> ending(timeout)
//	   │          (send --signal)                            │ SIGCONT, SIGTERM
//	   │ Terminate(reason, sig, grace)                       │
//	   └────────────────────────────────> ending(reason) ────┤
//	                                       │ SIGCONT, sig    │
//	                      Tick >= killAt   v                 v
//	                                     killed: SIGKILL every process
//
// The same operation serves the time limit (SIGTERM, KillWait, SIGKILL),
// scancel (SIGTERM, KillWait, SIGKILL) and graceful preemption (the
// victim's checkpoint signal, GraceTime, SIGKILL). Exited reports how the
// job ended, including whether a preempted job exited by itself inside its
// grace window (its checkpoint completed).
//
// A later Terminate may shorten the kill deadline, never extend it, and
// its reason becomes the job's.
package lifecycle
