package cluster

import (
	"errors"
	"fmt"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

// Sentinel errors, checked with errors.Is.
var (
	// ErrUnknownJob is an id the cluster does not hold.
	ErrUnknownJob = errors.New("unknown job")
	// ErrJobState is an event that does not apply to the job's state (End
	// of a pending job, Cancel of a running one, ...).
	ErrJobState = errors.New("wrong job state")
	// ErrUnknownNode is a node name the cluster does not hold.
	ErrUnknownNode = errors.New("unknown node")
	// ErrInvalid is an event or plan entry that cannot be applied as given.
	ErrInvalid = errors.New("invalid")
)

// Cluster is the live scheduling state. It is not safe for concurrent use:
// one loop owns it.
type Cluster struct {
	cfg sched.Config

	nodes   []sched.Node // capacity, in configuration order
	used    []nodeUse    // same index as nodes
	nodeIdx map[string]int

	// pending and running are dense; a job's index lives in its jobRec and
	// removal swaps the last element in, so Snapshot can hand them out
	// without copying.
	pending []sched.PendingJob
	running []sched.RunningJob
	jobs    map[sched.JobID]*jobRec
	arrays  map[sched.JobID]*arrayRec
	nextID  sched.JobID

	resv []sched.Reservation // sorted by Job
	// adv are the administrators' advance reservations (advresv.go).
	adv []sched.AdminReservation

	usage   []sched.Usage // sorted by tenant, then user (DecayUsage's order)
	usageAt time.Time     // the time usage values are valued at

	snap sched.Snapshot
	// licTotal are slurm.conf's license totals (licenses.go); nil: none.
	licTotal map[string]int
}

// New returns an empty cluster with cfg and nodes. Node names must be unique.
func New(cfg sched.Config, nodes []sched.Node) (*Cluster, error) {
	c := &Cluster{
		cfg:    cfg,
		jobs:   make(map[sched.JobID]*jobRec),
		arrays: make(map[sched.JobID]*arrayRec),
		nextID: 1,
	}
	if err := c.setNodes(nodes); err != nil {
		return nil, err
	}
	return c, nil
}

// Config returns the configuration the cluster runs with.
func (c *Cluster) Config() sched.Config { return c.cfg }

// NextID reserves and returns a job id no job has used. The controller takes
// submission ids from here so that array tasks, which get their ids when they
// start, never collide with them.
func (c *Cluster) NextID() sched.JobID {
	id := c.nextID
	c.nextID++
	return id
}

// seeID keeps NextID above every id the cluster has been given.
func (c *Cluster) seeID(id sched.JobID) {
	if id >= c.nextID {
		c.nextID = id + 1
	}
}

// Counts returns how many job records are pending and running.
func (c *Cluster) Counts() (pending, running int) {
	return len(c.pending), len(c.running)
}

// Snapshot returns the scheduler's input at now. It aliases the cluster's
// slices: it is valid until the next call that changes the cluster and must
// not be modified.
func (c *Cluster) Snapshot(now time.Time) *sched.Snapshot {
	c.snap = sched.Snapshot{
		Now:          now,
		Nodes:        c.nodes,
		Running:      c.running,
		Pending:      c.pending,
		Reservations: c.resv,
		Usage:        c.usage,

		AdminReservations: c.adv,
		Licenses:          c.freeLicenses(),
	}
	return &c.snap
}

// Reservations returns the live reservations, sorted by job id. The slice
// is the cluster's own: read it, do not keep it.
func (c *Cluster) Reservations() []sched.Reservation { return c.resv }

// Usage returns decayed usage as of the last Advance (tenant rows have an
// empty User). The slice is the cluster's own: read it, do not keep it.
func (c *Cluster) Usage() []sched.Usage { return c.usage }

func (c *Cluster) lookup(id sched.JobID) (*jobRec, error) {
	r, ok := c.jobs[id]
	if !ok {
		return nil, fmt.Errorf("job %d: %w", id, ErrUnknownJob)
	}
	return r, nil
}

func (c *Cluster) partition(name string) (*sched.Partition, bool) {
	for i := range c.cfg.Partitions {
		if c.cfg.Partitions[i].Name == name {
			return &c.cfg.Partitions[i], true
		}
	}
	return nil, false
}
