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
	if q.Known && len(q.JobIDs) == 1 && (!c.knownJob(q.JobIDs[0]) || c.jobHiddenFrom(id, q.JobIDs[0])) {
		return nil, api.NewError(api.CodeInvalidJobID)
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := &api.StepsResponse{Steps: []api.Step{}}
	for _, r := range c.running() {
		if len(q.JobIDs) > 0 && !slices.Contains(q.JobIDs, r.ID) && !slices.Contains(q.JobIDs, r.St.ArrayJobID) || !c.canSee(id, r) {
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
	sh := &s.Show
	st.Dist, st.SrunHost, st.SrunPid = sh.Dist, sh.SrunHost, sh.SrunPid
	st.TRES = stepTRESAlloc(s.CPUs, sh, s.nodeCount(), c.confNow().gpuTRES, requestGPUType(r.Req))
	st.TRESBind, st.TRESPerStep, st.TRESPerNode, st.TRESPerTask = sh.TRESBind, sh.TRESPerStep, sh.TRESPerNode, sh.TRESPerTask
	if sh.Dist == "" { // recorded before steps kept what they asked for
		st.TRESPerNode = oldStepTRES(s)
	}
	return st
}

// oldStepTRES is the TRES per node of a step recorded without its
// request: its GPUs per node.
func oldStepTRES(s *stepRecord) string {
	gpus := 0
	for _, n := range s.Layout.Nodes {
		gpus = max(gpus, len(n.GPUs))
	}
	if gpus == 0 {
		return ""
	}
	return "gres:gpu:" + strconv.Itoa(gpus)
}

// batchStep is a running batch script as a step.
func (c *Controller) batchStep(r *jobRecord) api.Step {
	st := stepBase(r)
	st.StepID, st.Name, st.StartTime = "batch", "batch", r.St.Start
	// Slurm lists the batch step with no CPUs of its own.
	st.Nodes, st.NodeCount, st.Tasks = hostlist.Compress([]string{r.St.BatchHost}), 1, 1
	return st
}

// knownJob reports whether the controller holds job id (or array id),
// live or in its history.
func (c *Controller) knownJob(id uint32) bool {
	c.mu.RLock()
	live := c.jobs[id] != nil
	for _, r := range c.jobs {
		if live {
			break
		}
		live = r.St.ArrayJobID == id
	}
	c.mu.RUnlock()
	if live {
		return true
	}
	_, ended := c.lookupEnded(id)
	return ended
}
