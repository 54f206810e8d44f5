package sched

// Licenses (slurm.conf Licenses=, a job's -L) are a cluster-wide count per
// name, not tied to nodes. A job starts only when every license it asks
// for is free; otherwise it waits with Reason=Licenses. A job that cannot
// start (for licenses or for resources) claims what is still free of the
// licenses it needs, so lower jobs that need the same licenses wait behind
// it rather than backfill past it. A snapshot without licenses, or a job
// without them, takes none of these paths.

// ReasonLicenses: a license the job asks for is in use (or claimed by a
// higher job).
const ReasonLicenses Reason = "Licenses"

// License is what a job asks of one license.
type License struct {
	Name  string
	Count int
}

// licState is this cycle's free count per license, copied from
// Snapshot.Licenses on first use and lowered by starts and claims.
type licState struct {
	free map[string]int
}

// startLicensed is tryStart for a job that may ask for licenses.
func (c *cycle) startLicensed(j *jobInfo) bool {
	if len(j.p.Licenses) == 0 {
		return c.tryStart(j)
	}
	if !c.licFree(j) {
		j.reason = ReasonLicenses
		return false
	}
	if !c.tryStart(j) {
		return false
	}
	c.licTake(j, false)
	return true
}

// licAfter runs once the pass has considered j: a job that needs
// licenses and got no start claims them.
func (c *cycle) licAfter(j *jobInfo) {
	if len(j.p.Licenses) == 0 || j.starts > 0 {
		return
	}
	if j.reason == "" || j.reason == ReasonLicenses || j.reason == ReasonPriority || j.reason == ReasonResources {
		c.licTake(j, true)
	}
}

func (c *cycle) licPool() map[string]int {
	if c.lic.free == nil {
		c.lic.free = make(map[string]int, len(c.snap.Licenses))
		for name, n := range c.snap.Licenses {
			c.lic.free[name] = n
		}
	}
	return c.lic.free
}

// licFree reports whether every license j asks for is free now. A name
// the snapshot does not know is never free.
func (c *cycle) licFree(j *jobInfo) bool {
	free := c.licPool()
	for _, l := range j.p.Licenses {
		if n, ok := free[l.Name]; !ok || n < l.Count {
			return false
		}
	}
	return true
}

// licTake takes j's licenses from the free pool; a claim takes what is
// left when less than the request is free.
func (c *cycle) licTake(j *jobInfo, claim bool) {
	free := c.licPool()
	for _, l := range j.p.Licenses {
		n, ok := free[l.Name]
		if !ok {
			continue
		}
		if claim {
			free[l.Name] = max(n-l.Count, 0)
		} else {
			free[l.Name] = n - l.Count
		}
	}
}
