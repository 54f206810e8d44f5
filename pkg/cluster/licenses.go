package cluster

// Licenses: slurm.conf's Licenses totals, set by the caller, and the
// licenses running jobs hold, which the scheduler's snapshot subtracts.

// SetLicenses sets the cluster's license totals (name to count); nil or
// empty: the cluster has no licenses and snapshots carry none. A change
// (reconfigure) applies from the next snapshot; jobs that already run keep
// what they hold.
func (c *Cluster) SetLicenses(total map[string]int) {
	if len(total) == 0 {
		c.licTotal = nil
		return
	}
	c.licTotal = make(map[string]int, len(total))
	for name, n := range total {
		c.licTotal[name] = n
	}
}

// LicensesUsed returns how many of each configured license running jobs
// hold; nil when the cluster has no licenses.
func (c *Cluster) LicensesUsed() map[string]int {
	if c.licTotal == nil {
		return nil
	}
	used := make(map[string]int, len(c.licTotal))
	for name := range c.licTotal {
		used[name] = 0
	}
	for i := range c.running {
		r := c.jobs[c.running[i].ID]
		if r == nil {
			continue
		}
		for _, l := range r.spec.Licenses {
			if _, ok := used[l.Name]; ok {
				used[l.Name] += l.Count
			}
		}
	}
	return used
}

// freeLicenses is the snapshot's free count per license.
func (c *Cluster) freeLicenses() map[string]int {
	used := c.LicensesUsed()
	if used == nil {
		return nil
	}
	free := make(map[string]int, len(used))
	for name, n := range c.licTotal {
		free[name] = n - used[name]
	}
	return free
}
