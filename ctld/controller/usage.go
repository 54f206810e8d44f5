package controller

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// applyUsage records what a node reports a job's steps used: the batch
// step from the batch host (on the job's end event), numbered steps from
// every node they ran on (an api.EventStepUsage event when the step ended
// there, or the job's end event for those it could not send so). A
// node's report replaces its earlier one of the same step, so a report
// sent again after a restart of the controller (which forgets the event
// numbers it applied) counts once. A job that already ended has its
// accounting record written again. The caller holds c.mu.
func (c *Controller) applyUsage(b *batch, r *jobRecord, node string, u *api.JobUsage) {
	if !c.ranOn(r, node) {
		return
	}
	changed := false
	if u.Batch != nil && node == r.St.BatchHost {
		n := *u.Batch
		r.St.BatchUsage = &n
		changed = true
	}
	for _, su := range u.Steps {
		s := c.findStep(r.ID, su.StepID)
		if s == nil {
			continue
		}
		if s.Usage == nil {
			s.Usage = &api.StepUsage{}
		}
		s.Usage.Add(su.Usage)
		s.releaseHold(node) // step_share.go
		b.persist(c.persistStep(s))
		changed = true
	}
	if changed && r.finished() {
		b.persist(c.persistEnd(r))
	}
}

// ranOn reports whether node is one of r's allocated nodes.
func (c *Controller) ranOn(r *jobRecord, node string) bool {
	for _, a := range r.St.Alloc {
		if a.Node == node {
			return true
		}
	}
	return node == r.St.BatchHost
}

// batchUsage is the batch step's usage for sacct.
func batchUsage(r *jobRecord) *api.StepUsage {
	if r.St.BatchUsage == nil {
		return nil
	}
	return &api.StepUsage{Nodes: []api.NodeUsage{*r.St.BatchUsage}}
}

// statTarget is one node share of a step sstat asks about.
type statTarget struct {
	step int // index in the response
	node nodeTarget
	req  api.NodedUsageRequest
}

// handleStepStat is sstat: the live usage of a job's running steps, asked
// of the node daemons that run them.
func (c *Controller) handleStepStat(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.StepStatRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if c.jobHiddenFrom(id, in.JobID) { // privatedata.go: as a job with no steps running
		return &api.StepStatResponse{Steps: []api.StepStat{}, NoSteps: true}, nil
	}
	out, targets, aerr := c.statPlan(&in)
	if aerr != nil || len(targets) == 0 {
		return out, aerr
	}
	nodes := make([]*api.NodeUsage, len(targets))
	var wg sync.WaitGroup
	for i, t := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			n, err := c.noded.StepUsage(cctx, t.node.addr, &t.req)
			if err != nil {
				c.log.WithError(err).WithField("job_id", in.JobID).WithField("node", t.node.node).Debug("step usage")
				return
			}
			n.Node = t.node.node
			nodes[i] = n
		}()
	}
	wg.Wait()
	for i, t := range targets {
		if nodes[i] != nil {
			out.Steps[t.step].Usage.Add(*nodes[i])
		}
	}
	return out, nil
}

// statPlan picks the steps sstat asked for and the nodes to ask.
func (c *Controller) statPlan(in *api.StepStatRequest) (*api.StepStatResponse, []statTarget, *api.Error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	r := c.jobs[in.JobID]
	if r == nil {
		return nil, nil, api.NewError(api.CodeInvalidJobID)
	}
	out := &api.StepStatResponse{Steps: []api.StepStat{}}
	if !r.running() {
		out.NoSteps = true
		return out, nil, nil
	}
	var targets []statTarget
	addBatch := func() {
		if r.Req.Script == "" || r.St.BatchHost == "" {
			return
		}
		t, ok := c.target(r.St.BatchHost)
		out.Steps = append(out.Steps, api.StepStat{JobID: r.ID, StepID: "batch", Nodes: r.St.BatchHost, Tasks: 1})
		if ok {
			targets = append(targets, statTarget{step: len(out.Steps) - 1, node: t, req: api.NodedUsageRequest{JobID: r.ID}})
		}
	}
	addStep := func(s *stepRecord) {
		out.Steps = append(out.Steps, api.StepStat{JobID: r.ID, StepID: strconv.FormatUint(uint64(s.StepID), 10),
			Nodes: s.Layout.NodeList, Tasks: s.Layout.Tasks})
		for _, sn := range s.Layout.Nodes {
			if t, ok := c.target(sn.Node); ok {
				id := s.StepID
				targets = append(targets, statTarget{step: len(out.Steps) - 1, node: t, req: api.NodedUsageRequest{JobID: r.ID, Step: &id}})
			}
		}
	}
	var running []*stepRecord
	if js := c.steps[r.ID]; js != nil {
		for _, s := range js.list {
			if s.running() {
				running = append(running, s)
			}
		}
	}
	switch {
	case in.Step == "batch":
		addBatch()
	case in.Step == "extern":
		// Loam runs no extern step: never found running, as sstat says.
	case in.Step != "":
		id, err := strconv.ParseUint(in.Step, 10, 32)
		if err != nil {
			return nil, nil, api.Errorf(api.CodeBadRequest, "step %q", in.Step)
		}
		if s := c.findStep(r.ID, uint32(id)); s != nil && s.running() {
			addStep(s)
		}
	case in.All:
		addBatch()
		for _, s := range running {
			addStep(s)
		}
	case len(running) > 0:
		addStep(running[0])
	}
	return out, targets, nil
}
