package controller

import (
	"fmt"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// explainStepGRES adds to a step's GRES refusal the line Slurm's srun
// prints before "Invalid generic resource (gres) specification" when the
// step asks more of a GPU option than the job asked of the same option:
// per node (--gpus-per-node, --gres) or for the whole job (--gpus). Other
// refusals have no such line on the peer either.
func explainStepGRES(aerr *api.Error, q *job.Request, in *api.StepCreateRequest) *api.Error {
	if aerr == nil || aerr.Code != api.CodeInvalidGRES || aerr.Detail != "" {
		return aerr
	}
	jobPerNode := max(resource.GPUCount(q.GPUsPerNode), resource.GPUCount(q.GRES))
	jobTotal := resource.GPUCount(q.GPUs)
	switch {
	case jobPerNode > 0 && in.GPUsPerNode > jobPerNode:
		aerr.Detail = fmt.Sprintf("Step requested gres_per_node=gpu:%d is more than the job's gres_per_node=gpu:%d", in.GPUsPerNode, jobPerNode)
	case jobTotal > 0 && in.GPUs > jobTotal:
		aerr.Detail = fmt.Sprintf("Step requested gres=gpu:%d is more than the job's gres=gpu:%d", in.GPUs, jobTotal)
	}
	return aerr
}
