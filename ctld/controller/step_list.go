package controller

import (
	"context"
	"slices"
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
)

// handleSteps lists the running steps for squeue -s: for every running job
// in id order its srun steps, then its batch script as the step "batch".
func (c *Controller) handleSteps(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var q api.StepQuery
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := &api.StepsResponse{Steps: []api.Step{}}
	for _, r := range c.running() {
		if len(q.JobIDs) > 0 && !slices.Contains(q.JobIDs, r.ID) && !slices.Contains(q.JobIDs, r.St.ArrayJobID) {
			continue
		}
		if js := c.steps[r.ID]; js != nil {
			for _, s := range js.list {
				if s.running() {
					out.Steps = append(out.Steps, c.listStep(r, s))
				}
			}
		}
		if r.Req.Script != "" && r.St.BatchHost != "" {
			out.Steps = append(out.Steps, c.batchStep(r))
		}
	}
	return out, nil
}

// stepBase fills what a step shares with its job.
func stepBase(r *jobRecord) api.Step {
	return api.Step{JobID: r.ID, ArrayJobID: r.St.ArrayJobID, ArrayTaskID: r.taskID(), Partition: r.St.Partition,
		UserID: r.Req.UserID, UserName: r.Req.UserName, State: job.Running}
}

func (c *Controller) listStep(r *jobRecord, s *stepRecord) api.Step {
	st := stepBase(r)
	st.StepID, st.Name, st.StartTime = strconv.FormatUint(uint64(s.StepID), 10), s.Name, s.Start
	st.Nodes, st.NodeCount, st.Tasks, st.CPUs = s.Layout.NodeList, s.nodeCount(), s.Layout.Tasks, s.CPUs
	gpus := 0
	for _, n := range s.Layout.Nodes {
		gpus = max(gpus, len(n.GPUs))
	}
	if gpus > 0 {
		st.TRESPerNode = "gres:gpu:" + strconv.Itoa(gpus)
	}
	return st
}

// batchStep is a running batch script as a step.
func (c *Controller) batchStep(r *jobRecord) api.Step {
	st := stepBase(r)
	st.StepID, st.Name, st.StartTime = "batch", "batch", r.St.Start
	st.Nodes, st.NodeCount, st.Tasks, st.CPUs = hostlist.Compress([]string{r.St.BatchHost}), 1, 1, batchCPUs(r)
	return st
}
