package command

import (
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
)

// jobDefaults is scontrol show partition's JobDefaults: the partition's
// own DefCPUPerGPU as the peer prints it ("DefCpuPerGPU=4"), else (null).
func jobDefaults(p *api.Partition) string {
	if p.DefCPUPerGPU > 0 {
		return "DefCpuPerGPU=" + strconv.FormatInt(p.DefCPUPerGPU, 10)
	}
	return "(null)"
}

// cpusPerTRES is scontrol show job's CpusPerTres: --cpus-per-gpu as
// "gres:gpu:N", a partition's DefCPUPerGPU as the peer prints it, "gpu:N".
func cpusPerTRES(j *api.Job) string {
	if j.CPUsPerGPUDefault && j.CPUsPerGPU > 0 {
		return "gpu:" + strconv.Itoa(j.CPUsPerGPU)
	}
	return perGPU(int64(j.CPUsPerGPU))
}
