package step

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// splitVerbose takes "verbose" and "quiet" out of a --cpu-bind or
// --gpu-bind value and returns the binding that is left.
func splitVerbose(spec string) (verbose bool, bind string) {
	var rest []string
	for _, p := range strings.Split(spec, ",") {
		switch strings.ToLower(p) {
		case "verbose", "v":
			verbose = true
		case "quiet", "q", "":
		default:
			rest = append(rest, p)
		}
	}
	// A list (map_cpu:0,1) was split at its commas: joining the rest
	// restores it.
	return verbose, strings.Join(rest, ",")
}

// NodeTaskGPUs is TaskGPUs for task local of node n, except that a node
// running one task of the step binds nothing: the peer's lone task sees
// every GPU the step has there (srun -n1 --gpus-per-task=1 or
// --gpu-bind=map_gpu:1 in a --gres=gpu:2 job gives CUDA_VISIBLE_DEVICES=0,1
// and no SLURMD_TRES_BIND).
func NodeTaskGPUs(s *api.StepCreateRequest, n *api.StepNode, local int) ([]int, error) {
	if len(n.TaskIDs) <= 1 {
		return nil, nil
	}
	return TaskGPUs(s, n.GPUs, local)
}

// TaskGPUs returns the GPUs task local of a node is bound to, nil for
// every GPU the step has there: --gpu-bind as given (none, closest,
// single:N, per_task:N, map_gpu:LIST, mask_gpu:LIST), else one block of
// --gpus-per-task GPUs per task, as the peer binds them.
func TaskGPUs(s *api.StepCreateRequest, nodeGPUs []int, local int) ([]int, error) {
	_, bind := splitVerbose(s.GPUBind)
	kind, arg, _ := strings.Cut(bind, ":")
	switch strings.ToLower(kind) {
	case "":
		if s.GPUsPerTask > 0 {
			return block(nodeGPUs, local, s.GPUsPerTask), nil
		}
		return nil, nil
	case "none":
		return nil, nil
	case "closest":
		// Every GPU of the step on the node is as close as any other
		// (Loam's gres has no Cores=): the peer's closest task sees them
		// all, with SLURMD_TRES_BIND=gpu:closest.
		return slices.Clone(nodeGPUs), nil
	case "per_task":
		n, err := positive(arg, bind)
		if err != nil {
			return nil, err
		}
		return block(nodeGPUs, local, n), nil
	case "single":
		n, err := positive(arg, bind)
		if err != nil || len(nodeGPUs) == 0 {
			return nil, err
		}
		return []int{nodeGPUs[(local/n)%len(nodeGPUs)]}, nil
	case "map_gpu":
		return mapGPU(arg, nodeGPUs, local)
	case "mask_gpu":
		return maskGPU(arg, nodeGPUs, local)
	}
	return nil, fmt.Errorf("invalid --gpu-bind %q", s.GPUBind)
}

// block is the local-th run of n entries of ids (wrapping around).
func block(ids []int, local, n int) []int {
	if len(ids) == 0 {
		return nil
	}
	out := make([]int, 0, n)
	for k := 0; k < n; k++ {
		out = append(out, ids[(local*n+k)%len(ids)])
	}
	return out
}

func positive(s, spec string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("invalid binding %q: want a positive count", spec)
	}
	return n, nil
}

// mapGPU binds task local to the local-th GPU of the list (global indices
// on the node, which must be the step's).
func mapGPU(list string, nodeGPUs []int, local int) ([]int, error) {
	ids, err := numberList(list, 10)
	if err != nil {
		return nil, fmt.Errorf("invalid map_gpu list %q", list)
	}
	g := int(ids[local%len(ids)])
	if !slices.Contains(nodeGPUs, g) {
		return nil, fmt.Errorf("map_gpu: GPU %d is not one of the step's on this node (%s)", g, joinInts(nodeGPUs))
	}
	return []int{g}, nil
}

// maskGPU binds task local to the GPUs of the local-th mask.
func maskGPU(list string, nodeGPUs []int, local int) ([]int, error) {
	masks, err := numberList(list, 16)
	if err != nil {
		return nil, fmt.Errorf("invalid mask_gpu list %q", list)
	}
	m := masks[local%len(masks)]
	var out []int
	for _, g := range nodeGPUs {
		if g < 64 && m&(1<<uint(g)) != 0 {
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("mask_gpu: mask %#x selects none of the step's GPUs on this node (%s)", m, joinInts(nodeGPUs))
	}
	return out, nil
}

// numberList parses "a,b,c" in base (16 accepts a 0x prefix).
func numberList(s string, base int) ([]uint64, error) {
	var out []uint64
	for _, p := range strings.Split(s, ",") {
		if base == 16 {
			p = strings.TrimPrefix(strings.TrimPrefix(p, "0x"), "0X")
		}
		v, err := strconv.ParseUint(p, base, 64)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty list")
	}
	return out, nil
}

// TaskCPUs returns the host CPUs task local is bound to, nil for none:
// --cpu-bind=cores (threads, sockets, ldoms, rank, boards: the same here)
// gives each task its own run of --cpus-per-task CPUs of the job's CPUs on
// the node, map_cpu and mask_cpu bind as listed.
func TaskCPUs(spec string, jobCPUs []int, cpusPerTask, local int) ([]int, error) {
	_, bind := splitVerbose(spec)
	kind, arg, _ := strings.Cut(bind, ":")
	switch strings.ToLower(kind) {
	case "", "none", "no":
		return nil, nil
	case "cores", "threads", "sockets", "ldoms", "rank", "boards":
		return block(jobCPUs, local, max(cpusPerTask, 1)), nil
	case "map_cpu", "map_ldom":
		ids, err := numberList(arg, 10)
		if err != nil {
			return nil, fmt.Errorf("invalid map_cpu list %q", arg)
		}
		return []int{int(ids[local%len(ids)])}, nil
	case "mask_cpu", "mask_ldom":
		masks, err := numberList(arg, 16)
		if err != nil {
			return nil, fmt.Errorf("invalid mask_cpu list %q", arg)
		}
		var out []int
		for c, m := 0, masks[local%len(masks)]; c < 64; c++ {
			if m&(1<<uint(c)) != 0 {
				out = append(out, c)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("invalid --cpu-bind %q", spec)
}
