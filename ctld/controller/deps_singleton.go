package controller

import "slices"

// evalSingleton: no other job of the same user and name runs, or pends
// ahead of r (held or not, with a singleton dependency or not), as in
// Slurm; the tasks of r's own array do not count. Only the records of
// that user and name are looked at (c.byName).
func (c *Controller) evalSingleton(r *jobRecord) depOutcome {
	for _, id := range c.byName[singletonKey(r)] {
		if o := c.jobs[id]; o != nil && blocksSingleton(o, r) {
			return depWaiting
		}
	}
	return depMet
}

// blocksSingleton reports whether o keeps r's singleton dependency
// waiting: same user and name, not a task of r's own array, and running
// (or suspended) or pending with a lower id.
func blocksSingleton(o, r *jobRecord) bool {
	if o == r || !sameSingletonName(o, r) || sameArray(o, r) {
		return false
	}
	return o.running() || (o.pending() && o.ID < r.ID)
}

func sameSingletonName(a, b *jobRecord) bool {
	return a.Req.UserName == b.Req.UserName && a.Req.Name == b.Req.Name
}

// sameArray reports whether a and b are records of one job array.
func sameArray(a, b *jobRecord) bool {
	return a.St.ArrayJobID != 0 && a.St.ArrayJobID == b.St.ArrayJobID
}

// nameIndexAdd puts live record r in c.byName under its user and name.
func (c *Controller) nameIndexAdd(r *jobRecord) {
	k := singletonKey(r)
	ids := c.byName[k]
	if i, found := slices.BinarySearch(ids, r.ID); !found {
		c.byName[k] = slices.Insert(ids, i, r.ID)
	}
}

// nameIndexRemove takes r out of c.byName.
func (c *Controller) nameIndexRemove(r *jobRecord) {
	k := singletonKey(r)
	ids := c.byName[k]
	if i, found := slices.BinarySearch(ids, r.ID); found {
		ids = slices.Delete(ids, i, i+1)
	}
	if len(ids) == 0 {
		delete(c.byName, k)
	} else {
		c.byName[k] = ids
	}
}
