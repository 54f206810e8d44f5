package command

import (
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// jobDefaults is scontrol show partition's JobDefaults: the partition's
// own DefCPUPerGPU and DefMemPerGPU as the peer prints them
// ("DefCpuPerGPU=4", "DefMemPerGPU=100"), else (null).
func jobDefaults(p *api.Partition) string {
	var out []string
	if p.DefCPUPerGPU > 0 {
		out = append(out, "DefCpuPerGPU="+strconv.FormatInt(p.DefCPUPerGPU, 10))
	}
	if p.DefMemPerGPU > 0 && !slices.Contains(p.InheritedMemory, "DefMemPerGPU") {
		out = append(out, "DefMemPerGPU="+strconv.FormatInt(p.DefMemPerGPU, 10))
	}
	if len(out) == 0 {
		return "(null)"
	}
	return strings.Join(out, ",")
}

// cpusPerTRES is scontrol show job's CpusPerTres: --cpus-per-gpu as
// "gres:gpu:N", a partition's DefCPUPerGPU as the peer prints it, "gpu:N".
func cpusPerTRES(j *api.Job) string {
	if j.CPUsPerGPUDefault && j.CPUsPerGPU > 0 {
		return "gpu:" + strconv.Itoa(j.CPUsPerGPU)
	}
	return perGPU(int64(j.CPUsPerGPU))
}
