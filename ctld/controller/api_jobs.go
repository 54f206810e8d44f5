package controller

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

func querySpec(q *api.JobQuery) filterSpec {
	return filterSpec{JobIDs: q.JobIDs, Users: q.Users, Accounts: q.Accounts, Partitions: q.Partitions,
		States: q.States, Names: q.Names, QOS: q.QOS, Nodes: q.Nodes}
}

// handleJobs answers full job records (scontrol show job, squeue --json).
func (c *Controller) handleJobs(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var q api.JobQuery
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	f, aerr := c.compileFilter(querySpec(&q))
	if aerr != nil {
		return nil, aerr
	}
	f.query = true
	c.seeJobs(f, id) // privatedata.go
	n := needAll
	n.detail = q.Detail
	c.mu.RLock()
	defer c.mu.RUnlock()
	cs := c.confNow()
	hidden := c.hiddenPartitions(cs, &q, id)
	out := &api.JobsResponse{Now: unix(c.now()), Jobs: []api.Job{}}
	out.Missing = c.selectJobs(f, func(r *jobRecord) {
		if c.canSee(id, r) && !jobHidden(r, hidden) {
			out.Jobs = append(out.Jobs, api.Job{})
			c.fillJob(&out.Jobs[len(out.Jobs)-1], r, n)
		}
	})
	return out, nil
}

// handleJobTable answers the compact listing (squeue).
func (c *Controller) handleJobTable(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var q api.JobQuery
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	f, aerr := c.compileFilter(querySpec(&q))
	if aerr != nil {
		return nil, aerr
	}
	f.query = true
	c.seeJobs(f, id) // privatedata.go
	n := needFor(q.Fields)
	c.mu.RLock()
	defer c.mu.RUnlock()
	w, err := api.NewTableWriter(q.Fields, unix(c.now()))
	if err != nil {
		return nil, api.Errorf(api.CodeBadRequest, "%v", err)
	}
	// Select first, then write: knowing the row count, the table is
	// written into one buffer sized after its first row (w.Grow).
	var recs []*jobRecord
	cs := c.confNow()
	hidden := c.hiddenPartitions(cs, &q, id)
	missing := c.selectJobs(f, func(r *jobRecord) {
		if c.canSee(id, r) && !jobHidden(r, hidden) {
			recs = append(recs, r)
		}
	})
	var scratch api.Job
	for i, r := range recs {
		c.fillJob(&scratch, r, n)
		w.Add(&scratch)
		if i == 0 {
			w.Grow(len(recs) - 1)
		}
	}
	return w.Finish(missing), nil
}
