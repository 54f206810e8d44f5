package controller

import (
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// gpuTaskCPUs is the CPUs per task slurmctld derives from --gpus-per-task
// with --cpus-per-gpu (they exclude -c): a task's GPUs times the CPUs of
// each. It shows as CPUs/Task and in MinCPUsNode, pending or running,
// while a pending job's NumCPUs still counts one CPU per task (the peer:
// -n2 --gpus-per-task=2 --cpus-per-gpu=3 pends with NumCPUs=2 CPUs/Task=6
// MinCPUsNode=6, runs with NumCPUs=12). 0 unless both are given.
func gpuTaskCPUs(q *job.Request) int {
	if q.CPUsPerGPU <= 0 || q.CPUsPerTask > 0 {
		return 0
	}
	return resource.GPUCount(q.GPUsPerTask) * q.CPUsPerGPU
}
