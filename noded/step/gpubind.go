package step

import (
	"math/big"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// GPUBindVerbose is the line slurmstepd writes on a task's standard error
// for --gpu-bind=verbose,...: the task's GPUs and the step's on the node
// as hexadecimal masks, then the task's GPU list twice (global and local
// indices, which are the same without device cgroups). The peer's
// --gpu-bind=verbose,map_gpu:3,1 task 0 in a step of GPUs 0-3 printed
// "gpu-bind: usable_gres=0x8; bit_alloc=0xF; local_inx=0; global_list=3;
// local_list=3". A task that is not bound (none, or a node's lone task)
// gets no line.
func GPUBindVerbose(s *api.StepCreateRequest, nodeGPUs, taskGPUs []int) string {
	if verbose, _ := splitVerbose(s.GPUBind); !verbose || taskGPUs == nil {
		return ""
	}
	list := joinInts(taskGPUs)
	return "gpu-bind: usable_gres=" + hexMask(taskGPUs) + "; bit_alloc=" + hexMask(nodeGPUs) +
		"; local_inx=0; global_list=" + list + "; local_list=" + list + "\n"
}

// hexMask is Slurm's bit_fmt_hexmask_trim: the set bits as 0x and upper
// case hexadecimal digits without leading zeros.
func hexMask(ids []int) string {
	var m big.Int
	for _, id := range ids {
		if id >= 0 {
			m.SetBit(&m, id, 1)
		}
	}
	return "0x" + strings.ToUpper(m.Text(16))
}
