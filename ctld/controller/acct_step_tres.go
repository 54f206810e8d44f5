package controller

import (
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/resource"
)

// fillStepTRES sets the AllocTRES of r's srun steps in steps (its
// accounting record's) as the Slurm accounting keeps them: the step's
// CPUs, the job's memory on the step's nodes, its node count and its GPUs
// when tracked ("cpu=2,gres/gpu=2,mem=2G,node=2" on the peer for an srun
// step over a -N2 --gres=gpu:1 job). The caller holds c.mu.
func (c *Controller) fillStepTRES(r *jobRecord, steps []api.AcctStep) {
	js := c.steps[r.ID]
	if js == nil {
		return
	}
	byID := make(map[string]*stepRecord, len(js.list))
	for _, s := range js.list {
		byID[strconv.FormatUint(uint64(s.StepID), 10)] = s
	}
	for i := range steps {
		if s := byID[steps[i].StepID]; s != nil {
			steps[i].AllocTRES = c.stepTRES(r, s)
		}
	}
}

func (c *Controller) stepTRES(r *jobRecord, s *stepRecord) string {
	var mem int64
	gpus := 0
	for _, n := range s.Layout.Nodes {
		for _, a := range r.St.Alloc {
			if a.Node == n.Node {
				mem += a.Memory
			}
		}
		gpus += len(n.GPUs)
	}
	var t resource.TRES
	t.Set(resource.TRESCPU, int64(s.CPUs))
	t.Set(resource.TRESMem, mem)
	t.Set(resource.TRESNode, int64(s.nodeCount()))
	c.confNow().gpuTRES.add(&t, requestGPUType(r.Req), gpus)
	return t.String()
}
