// Package sched decides which pending jobs start where, which running jobs are
// preempted, which blocked jobs hold reservations, and why every other job
// waits. It performs no I/O, reads no clock, starts no goroutines and uses no
// global randomness: the same Config and Snapshot always yield the same Plan,
// so pkg/sim replays traces through exactly the code loam-ctld runs. Nothing
// depends on the order of the Snapshot's slices or on map iteration: ties
// break by job id, sums run in Config order.
//
// The caller owns all state: the Snapshot carries what earlier cycles decided
// (reservations, previous priorities, cool-downs, usage) and the Plan says
// what to change. The caller applies the Plan (Plan.Text renders it for a
// decision log) and re-checks it against live state; CheckPlan verifies the
// invariants any Plan must keep.
//
// One cycle, in order (sched.go):
//
//  1. Cluster: nodes, partitions, running jobs and an index of nodes by free
//     GPUs per partition (index.go).
//  2. Jobs (load.go, static.go, priority.go): holds, dependencies, begin
//     times and partition limits give Slurm's reasons; the rest get Slurm's
//     multifactor priority (age, fair share, job size, partition, QOS,
//     nice) plus, under Loam, the queue's aging term and compensation for
//     run time lost to preemption. Loam's fair share is the classic two-level formula; the
//     Slurm baselines use Fair Tree, Slurm's default (fairtree.go). Jobs
//     are ordered by PriorityTier, priority, job id (a radix sort,
//     radix.go) and stored in that order, which every later step walks.
//  3. Carried reservations (holds.go, deadlock.go): gone jobs drop them;
//     under Loam ones that stopped making progress time out with a
//     cool-down (sched.go), the wait-for graph between reservations is
//     built and every cycle in it broken, and every reservation takes the
//     GPUs that freed on its planned nodes, those that preempted for them
//     first.
//  4. The pass (pass.go): in order, each job is admitted by quota
//     (quota.go: caps, per-user limits, owned then borrowed GPUs) and placed
//     (Loam, fit.go: a single-node job where it delays least its node's
//     next whole-node availability, then among nodes draining soonest after
//     it, then best fit by free GPUs; a multi-node job on the fullest nodes
//     that fit, on few leaf switches, on at most --switches of them while
//     the job's switch wait lasts (switches.go); -w/-x/-C, memory and
//     CPUs. The Slurm
//     baselines place as select/cons_tres does, slurmfit.go; under every
//     policy a partition with LLN takes the nodes with the most idle CPUs,
//     lln.go). A job that
//     cannot be placed may preempt (preempt.go: urgent queues, lenders
//     reclaiming) and, if it is among its queue's top blocked jobs, reserves
//     the nodes that free soonest by the running jobs' time limits
//     (reserve.go). Jobs behind a blocked job of their queue backfill: they
//     may use held resources only when they end by the reservation's
//     planned start (or not at all in a strict queue); Loam tries them
//     smallest work first. Under Loam a multi-node job at the head of its
//     queue, never requeued, may take what the reservations of younger,
//     lower jobs of its queue hold (reserve.go, heads). A reservation
//     whose job only the lendable pool stops is parked: kept, holding
//     nothing.
//  5. Cycles formed during the pass are broken; survivors re-plan at once.
//  6. Every waiting job that can run gets an estimated start (estimate.go):
//     the planned start of its reservation, or its place on an aggregate
//     free-capacity profile laid out in scheduling order.
//
// Administrators' advance reservations (Snapshot.AdminReservations,
// advresv.go) apply to every policy: in its window a reservation's nodes
// run only the jobs submitted into it; other jobs use them only when they
// end before the window starts, and planning treats the window as busy
// time. A snapshot without them takes none of those paths.
//
// Policies. PolicyLoam is all of the above. PolicyEASY is Slurm 22.05's
// sched/backfill with select/cons_tres as its defaults configure them
// (Config.Backfill): jobs in priority order (Fair Tree fair share); every
// blocked job among the first bf_max_job_test reserves, on whole nodes
// (Slurm's backfill map is per node), unless its start lies beyond
// bf_window; reservations are re-planned every pass and never expire;
// limits are hard caps without lending; urgent partitions preempt lower
// tiers as preempt/partition_prio does; nodes are chosen by cons_tres's
// own rules (slurmfit.go), not by free GPUs. PolicyFCFS starts jobs in
// order, placed the same way, and stops a queue at its first job that
// does not fit.
package sched
