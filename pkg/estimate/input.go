package estimate

import "time"

// Input is one moment of the cluster: capacity, what runs, what waits.
type Input struct {
	Now   time.Time
	Pools []Pool
	// Running jobs hold capacity until their predicted end.
	Running []Running
	// Pending jobs, in scheduling order (the order the scheduler tries
	// them: higher partition tiers first, then priority).
	Pending []Pending
}

// Pool is the capacity of a set of nodes that partitions share: the
// nodes that can run jobs now.
type Pool struct {
	GPUs int
	CPUs int
}

// Use is what a job holds (or asks for) in one pool.
type Use struct {
	Pool int
	GPUs int
	CPUs int
}

// Running is a job that holds resources.
type Running struct {
	ID     uint32
	User   string
	Tenant string
	Start  time.Time
	// Limit is the time limit; 0 means unlimited (it never frees).
	Limit time.Duration
	Use   []Use
}

// Pending is a job that waits.
type Pending struct {
	ID     uint32
	User   string
	Tenant string
	// Need is what the job asks of its partition's pool.
	Need  Use
	Limit time.Duration // 0: unlimited
	// Planned is the scheduler's estimate on time limits; zero when it
	// has none (held, waiting on a dependency, never runnable), and then
	// this package gives none either.
	Planned time.Time
	// NotBefore is the earliest start the job may have for reasons other
	// than resources (a --begin time).
	NotBefore time.Time
	// Limited marks a job that waits on a quota or job-count limit
	// rather than on resources: its planned start is when that limit
	// frees by time limits, which the run-time ratio shortens.
	Limited bool
}
