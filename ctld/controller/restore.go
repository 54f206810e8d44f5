package controller

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/store"
)

// restore rebuilds memory and the engine from the store after a start:
// the id sequence, node admin state, and every live job. Running jobs keep
// their allocations; their nodes confirm them when they register again,
// or the jobs fail when the nodes stay silent past SlurmdTimeout.
func (c *Controller) restore() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	next, err := c.store.NextJobID()
	if err != nil {
		return err
	}
	c.eng.SetNextID(next)
	admin, err := c.store.LoadNodes()
	if err != nil {
		return err
	}
	for name, data := range admin {
		if n := c.nodes[name]; n != nil {
			if err := json.Unmarshal(data, &n.admin); err != nil {
				return fmt.Errorf("node %s state: %w", name, err)
			}
		}
	}
	var recs []*jobRecord
	if err := c.store.LoadJobs(func(row store.JobRow) error {
		r, err := decodeRecord(row.ID, row.Request, row.Status)
		if err != nil {
			return err
		}
		recs = append(recs, r)
		return nil
	}); err != nil {
		return err
	}
	shared := map[string]*job.Request{} // array tasks share one request in memory
	for _, r := range recs {
		blob := r.reqBlob
		if q, ok := shared[string(blob)]; ok && r.St.ArrayJobID != 0 {
			r.Req = q
		} else if r.St.ArrayJobID != 0 {
			shared[string(blob)] = r.Req
		}
		r.reqBlob = nil
		c.restoreOne(r)
	}
	slices.SortStableFunc(c.endedIDs, func(a, b uint32) int { return int(c.jobs[a].St.End - c.jobs[b].St.End) })
	for _, r := range recs {
		if r.pending() && r.St.Dep != nil {
			c.evalDependency(r)
		}
	}
	for _, n := range c.nodes {
		c.updateEngine(n)
	}
	if err := c.restoreSteps(); err != nil { // step.go
		return err
	}
	if err := c.restoreAdvResvs(); err != nil { // advresv_api.go
		return err
	}
	c.markStartedResvs(c.now())                 // advresv_scripts.go
	if err := c.restoreTriggers(); err != nil { // trigger.go
		return err
	}
	c.log.WithField("jobs", len(recs)).WithField("next_job_id", next).Info("state restored")
	return nil
}

// restoreOne makes one stored record live again.
func (c *Controller) restoreOne(r *jobRecord) {
	log := c.log.WithField("job_id", r.ID)
	switch {
	case r.pending():
		if err := c.eng.Submit(c.engineJob(r)); err != nil {
			log.WithError(err).Error("restore: scheduler refused a pending job; it stays pending")
			r.St.Reason = job.ReasonPartitionConfig
		}
	case r.running():
		var preemptDeadline time.Time // St.Preempt is cleared when a run ends
		if r.St.Preempt != 0 {
			preemptDeadline = fromUnix(r.St.Preempt).Add(time.Duration(r.St.PreemptGrace) * time.Second)
		}
		if err := c.eng.Restore(c.engineJob(r), fromUnix(r.St.Start), r.St.Partition, r.St.Alloc, preemptDeadline); err != nil {
			log.WithError(err).Error("restore: scheduler refused a running job")
		}
		c.restoreSuspension(r) // suspend.go
	}
	c.addRecord(r)
	if r.running() {
		c.attach(r)
	}
	if r.St.State == job.Configuring {
		// Its PrologSlurmctld died with the old controller: run it again.
		c.launchOrProlog(nil, r) // ctldscripts.go
	}
}
