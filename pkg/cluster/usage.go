package cluster

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

// Advance moves the usage clock to now with sched.DecayUsage: past usage
// decays with the configured half-life and running jobs are charged up to
// now. Call it before each Snapshot; the first call only starts the clock,
// and a now before the last Advance changes nothing.
func (c *Cluster) Advance(now time.Time) {
	if c.usageAt.IsZero() {
		c.usageAt = now
		return
	}
	if !now.After(c.usageAt) {
		return
	}
	c.usage = sched.DecayUsage(c.usage, c.running, c.usageAt, now, c.cfg.Priority.DecayHalfLife)
	c.usageAt = now
}

// chargeEnded charges a job leaving the running set at when for its use
// since the last Advance, valued at the usage clock, so that the next
// DecayUsage call decays it exactly as if the job had been in its running
// list. This keeps End O(1) instead of advancing every running job at each
// end. Like DecayUsage it counts GPU-seconds, or CPU-seconds for a job with
// no GPUs, for the tenant and the user.
func (c *Cluster) chargeEnded(run *sched.RunningJob, when time.Time) {
	if c.usageAt.IsZero() {
		return
	}
	from := run.Start
	if c.usageAt.After(from) {
		from = c.usageAt
	}
	if !when.After(from) {
		return
	}
	w := c.weight(from, when)
	gpus, cpus := allocCounts(run.Alloc)
	c.charge(run.Tenant, "", gpus, cpus, w)
	if run.User != "" {
		c.charge(run.Tenant, run.User, gpus, cpus, w)
	}
}

func (c *Cluster) charge(tenant, user string, gpus, cpus int, w float64) {
	u := c.usageRow(tenant, user)
	if gpus > 0 {
		u.GPUSec += float64(gpus) * w
	} else {
		u.CPUSec += float64(cpus) * w
	}
}

// usageRow finds or inserts the (tenant, user) row, keeping DecayUsage's
// order.
func (c *Cluster) usageRow(tenant, user string) *sched.Usage {
	i, found := slices.BinarySearchFunc(c.usage, sched.Usage{Tenant: tenant, User: user}, func(a, b sched.Usage) int {
		if r := cmp.Compare(a.Tenant, b.Tenant); r != 0 {
			return r
		}
		return cmp.Compare(a.User, b.User)
	})
	if !found {
		c.usage = slices.Insert(c.usage, i, sched.Usage{Tenant: tenant, User: user})
	}
	return &c.usage[i]
}

// weight is the decayed length of [from, to] valued at c.usageAt: the
// integral of 2^-((usageAt - s)/halfLife) ds, or plain seconds without decay.
func (c *Cluster) weight(from, to time.Time) float64 {
	h := c.cfg.Priority.DecayHalfLife.Seconds()
	a, b := from.Sub(c.usageAt).Seconds(), to.Sub(c.usageAt).Seconds()
	if h <= 0 {
		return b - a
	}
	return h / math.Ln2 * (math.Exp2(b/h) - math.Exp2(a/h))
}

func allocCounts(alloc []sched.NodeAlloc) (gpus, cpus int) {
	for _, a := range alloc {
		gpus += len(a.GPUs)
		cpus += max(a.CPUs, 0)
	}
	return gpus, cpus
}
