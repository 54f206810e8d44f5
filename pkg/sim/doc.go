// Package sim replays job traces through Loam's scheduler on a virtual
// clock, with exactly the loop loam-ctld runs (pkg/cluster + pkg/sched), and
// generates synthetic LLM-era traces. It is pure: it reads from io.Readers
// and fs.FS values handed in, takes time only from its event heap, uses its
// own seeded generator, and starts no goroutines (tools/ssim runs policies
// concurrently and times the cycles).
//
// # The loop
//
// Events sit in a heap ordered by (time, kind, sequence): submissions, job
// ends, kills at the end of a preemption grace window, user cancels, and a
// periodic tick (Options.Interval) while jobs pend. For every batch of
// events at one instant:
//
//	apply events to the cluster (Submit, End, Requeue, Cancel)
//	cluster.Advance(now)                       decayed usage
//	plan := scheduler.Cycle(cluster.Snapshot(now))
//	sched.CheckPlan(cfg, snapshot, plan)       every cycle; a violation stops the replay
//	decision log <- plan                       one line per decision
//	actions := cluster.ApplyPlan(plan)         re-checked; a refusal stops the replay
//	launch:  end event at now + min(work left, time limit)
//	preempt: kill event at now + grace
//
// # Trace rows
//
//   - Runtime: run_s is the work; a job ends at start + min(run_s, limit)
//     and counts as TIMEOUT when its limit cut it short.
//   - Limits: limit_s, else DeriveLimit (users over-ask; see there).
//   - Rows that never ran in the recorded system (run_s 0 or blank, and
//     state PENDING or CANCELLED; other rows need their run_s) are submitted and cancelled by their user at submit +
//     wait_s; if Loam started them earlier they run until then and end
//     CANCELLED. They hold resources but are left out of the delay metrics.
//   - Rows the replayed cluster can never run (a shape no node or partition
//     holds, a limit above the partition's MaxTime, an account the
//     partition refuses: the scheduler's PartitionConfig, PartitionNodeLimit,
//     PartitionTimeLimit, BadConstraints, AccountNotAllowed, InvalidAccount)
//     are refused at their first pass, as loam-ctld refuses them at submit:
//     "refuse job=N reason=R" in the decision log, Result.Refused, and no
//     delay metrics.
//   - RUNNING rows (still running when the trace was taken, ended by
//     deletion) run for run_s like completed ones.
//   - Preemption victims run through their grace window, then are requeued
//     having lost the run time since their last checkpoint: never
//     (restart from scratch, the default), every Options.Checkpoint, or at
//     the signal itself (Options.CheckpointOnSignal: only the grace window
//     is lost). They resume with the work left.
//
// # Metrics (Result)
//
// Queueing delay is first start - submit (a job that never starts counts
// until the end of the replay and is starved); JCT is end - submit;
// bounded slowdown is max(1, JCT / max(useful run time, 10 s)). GPU
// utilization is GPU-seconds held over GPU-seconds available between the
// first and the last submission (the contended window) and over the whole
// replay; goodput is the same in the window less the GPU time preemption
// threw away (a victim's run since its last checkpoint, which it runs
// again). Fragmentation is the time-weighted mean of the plan's rate.
//
// Fairness reads the target "no tenant below 90% of its weighted share
// while it has demand" as follows. A tenant's share is its weight over
// all weights times the cluster's GPUs (cut at its GPU cap). At each
// instant it has demand when it has a pending job that has waited at least
// Options.FairSettle (15 minutes: a preemption grace window and a few
// passes, the time any scheduler needs to free GPUs for it) and that fits
// its share on its own; rows the user cancelled in the recorded system
// are no demand. While it has demand it is owed what it holds plus as
// many of those jobs, smallest first, as fit in the part of its share it
// does not hold, and never more than its share: a tenant whose next job is
// bigger than what is left of its share is owed only what it holds, and
// one above its share is owed its share. Its fair ratio is the GPU time it
// got (what it held, up to what it was owed) over the GPU time it was
// owed, over the whole replay; 1 means it always had all it could use of
// its share within FairSettle of asking. Holding more at one time does
// not make up for less at another. The minimum over tenants with demand
// is the reported "min fair ratio".
//
// A job is starved when it waits longer than Options.StarveAfter (72 h) or
// never starts.
package sim
