// Package estimate corrects the scheduler's start estimates with history
// (R13). The scheduler plans on time limits, as Slurm's backfill does for
// squeue --start; users ask for far more time than their jobs use, so those
// estimates run late. This package replays the same plan on an aggregate
// capacity profile where every job lasts what its user's jobs actually
// last.
//
// Run times. Each finished job teaches its ratio of actual run time to
// requested limit (Model.ObserveEnd) to a distribution per user, per
// tenant and for the cluster (log-spaced bins, recent jobs weighing more);
// a user with few finished jobs is shrunk towards the tenant, the tenant
// towards the cluster, the cluster towards a prior of one half. A pending
// job is expected to run limit x the mean ratio. A running job is expected
// to run limit x the mean ratio of the jobs that ran at least as long as
// it has: a job that outlived the many quick failures is expected to run
// as long as the jobs that went on running.
//
// Placement. Pending jobs are laid on the profile in scheduling order at
// the earliest time their whole predicted run fits: a conservative
// backfill on aggregate capacity, as pkg/sched does with limits.
//
// Release trends. Every prediction is remembered per horizon (under 10
// min, to 1 h, 4 h, 12 h, 48 h, beyond); when the job starts, the ratio of its actual
// wait to the predicted one moves that horizon's factor (a running median
// of log ratios, bounded to [1/4, 4]). Later predictions are stretched or
// shrunk by a curve through the horizons' factors that keeps their order:
// a job predicted later is never told it starts sooner.
//
// The package is pure: time comes in through Input.Now and the observed
// events, nothing reads a clock, and outputs depend only on inputs and the
// order of observations.
package estimate
