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
//  2. Jobs (static.go, priority.go): holds, dependencies, begin times and
//     partition limits give Slurm's reasons; the rest get Slurm's multifactor
//     priority (age, classic two-level fair share, job size, partition, QOS,
//     nice) plus, under Loam, the queue's aging term and compensation for run
//     time lost to preemption. Jobs are ordered by PriorityTier, priority,
//     job id.
//  3. Carried reservations (holds.go, deadlock.go): gone jobs drop them,
//     timed-out ones drop with a cool-down, the wait-for graph between
//     reservations is built and every cycle in it broken, and every
//     reservation takes the GPUs that freed on its planned nodes.
//  4. The pass (pass.go): in order, each job is admitted by quota
//     (quota.go: caps, per-user limits, owned then borrowed GPUs) and placed
//     (fit.go: best fit by free GPUs so whole nodes stay whole, few leaf
//     switches, -w/-x/-C, memory and CPUs). A job that cannot be placed may
//     preempt (preempt.go: urgent queues, lenders reclaiming) and, if it is
//     among its queue's top blocked jobs, reserves the nodes that free
//     soonest by the running jobs' time limits (reserve.go). Jobs behind a
//     blocked job of their queue backfill: they may use held resources only
//     when they end by the reservation's planned start (or not at all in a
//     strict queue); Loam tries them smallest work first.
//  5. Cycles formed during the pass are broken; survivors re-plan at once.
//  6. Every waiting job that can run gets an estimated start (estimate.go):
//     the planned start of its reservation, or its place on an aggregate
//     free-capacity profile laid out in scheduling order.
//
// Policies. PolicyLoam is all of the above. PolicyEASY is Slurm's
// sched/backfill: the top blocked job of each queue gets the one reservation,
// re-planned every cycle and never expiring; limits are hard caps without
// lending; urgent partitions preempt lower tiers as preempt/partition_prio
// does. PolicyFCFS starts jobs in order and stops a queue at its first job
// that does not fit. All three share the placement code.
package sched
