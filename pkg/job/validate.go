package job

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/resource"
)

// InvalidError is a request Slurm refuses, in Slurm's words: Msg is the
// message sbatch or the controller prints ("Invalid GRES specification (with
// and without type identification)"), Detail an explanation line some GRES
// errors print before it.
type InvalidError struct {
	Msg    string
	Detail string
}

func (e *InvalidError) Error() string {
	if e.Detail != "" {
		return e.Detail + ": " + e.Msg
	}
	return e.Msg
}

// Slurm's messages for invalid requests, kept exact because users and their
// scripts read them.
const (
	MsgMemoryOptions = "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive."
	MsgBeginDeadline = "Incompatible begin and deadline time specification"
	MsgInvalidGRES   = "Invalid generic resource (gres) specification"
	MsgGRESTypeMix   = "Invalid GRES specification (with and without type identification)"
	MsgTimeMin       = "Invalid time-min specification (exceeds job's time or other limits)"
	MaxNice          = 2147483645 // NICE_OFFSET - 3
	// MsgGPUsPerSocket is the line before MsgInvalidGRES for
	// --gpus-per-socket without a socket count.
	MsgGPUsPerSocket  = "--gpus-per-socket option requires --sockets-per-node specification"
	msgGPUsPerTask    = "Failed to validate job spec. --gpus-per-task used without either --gpus or -n/--ntasks is not allowed."
	msgMemPerGPUNoGPU = "Requested mem_per_tres=gres:gpu:%d but did not request any GPU."
)

// Validate checks that the request is consistent in itself, in the order
// and with the words of Slurm's checks. It does not look at the cluster:
// partitions, node names, GRES names and limits are the controller's.
func (r *Request) Validate() error {
	if err := r.ValidateClient(); err != nil {
		return err
	}
	if r.TimeLimit != nil && r.TimeMin != nil && *r.TimeMin > *r.TimeLimit {
		return &InvalidError{Msg: MsgTimeMin}
	}
	return nil
}

// ValidateClient is the part of Validate that sbatch itself checks before
// it sends a request; the controller checks the rest (Validate).
func (r *Request) ValidateClient() error {
	checks := []func() error{r.checkMemory, r.checkCounts, r.checkTimes, r.checkGRES}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func (r *Request) checkMemory() error {
	n := 0
	for _, m := range []*int64{r.MemPerNode, r.MemPerCPU, r.MemPerGPU} {
		if m != nil {
			n++
			if *m < 0 {
				return &InvalidError{Msg: fmt.Sprintf("Invalid memory size %d", *m)}
			}
		}
	}
	if n > 1 {
		return &InvalidError{Msg: MsgMemoryOptions}
	}
	return nil
}

func (r *Request) checkCounts() error {
	switch {
	case r.NTasks < 0:
		return &InvalidError{Msg: fmt.Sprintf("invalid number of tasks (-n %d)", r.NTasks)}
	case r.CPUsPerTask < 0:
		return &InvalidError{Msg: fmt.Sprintf("invalid number of cpus per task (-c %d)", r.CPUsPerTask)}
	case r.MinNodes < 0 || r.MaxNodes < 0 || (r.MaxNodes != 0 && r.MinNodes > r.MaxNodes):
		return &InvalidError{Msg: fmt.Sprintf("invalid number of nodes (-N %d-%d)", r.MinNodes, r.MaxNodes)}
	case r.NTasksPerNode < 0 || r.CPUsPerGPU < 0:
		return &InvalidError{Msg: "Invalid negative task or CPU count"}
	case r.Nice != nil && (*r.Nice > MaxNice || *r.Nice < -MaxNice):
		return &InvalidError{Msg: fmt.Sprintf("Invalid --nice value, out of range (+/- %d)", MaxNice)}
	}
	return nil
}

func (r *Request) checkTimes() error {
	if r.Begin != nil && r.Deadline != nil && r.Deadline.Before(*r.Begin) {
		return &InvalidError{Msg: MsgBeginDeadline}
	}
	if (r.TimeLimit != nil && *r.TimeLimit < 0) || (r.TimeMin != nil && *r.TimeMin < 0) {
		return &InvalidError{Msg: "Invalid negative time limit"}
	}
	return nil
}

// checkGRES applies the request-only part of Slurm's GRES validation.
func (r *Request) checkGRES() error {
	var all []resource.GRES
	for _, list := range [][]resource.GRES{r.GRES, r.GPUs, r.GPUsPerNode, r.GPUsPerTask} {
		all = append(all, list...)
	}
	gpus := false
	for _, g := range all {
		gpus = gpus || g.Name == "gpu"
	}
	if resource.CheckTypes(all) != nil {
		return &InvalidError{Msg: MsgGRESTypeMix}
	}
	if detail := r.gpuCountsDetail(); detail != "" {
		return &InvalidError{Detail: detail, Msg: MsgInvalidGRES}
	}
	if r.MemPerGPU != nil && !gpus {
		return &InvalidError{Detail: fmt.Sprintf(msgMemPerGPUNoGPU, *r.MemPerGPU), Msg: MsgInvalidGRES}
	}
	return nil
}

// gpuCountsDetail checks that the GPU counts per job, node, socket and
// task agree, as Slurm's gres_job_state_validate does (in its order and
// words: the peer refuses --gpus=3 -N2 --gpus-per-node=2 with "Failed to
// validate job spec, --gpus is not multiple of --gres=gpu/--gpus-per-node"
// and then "Invalid generic resource (gres) specification"). First each
// count must not exceed the wider one (the peer's -G4 --gpus-per-node=8
// and --gpus-per-node=2 --gpus-per-task=4 fail so).
func (r *Request) gpuCountsDetail() string {
	perJob, perTask := int64(resource.GPUCount(r.GPUs)), int64(resource.GPUCount(r.GPUsPerTask))
	perNode := int64(r.NodeGPUs())
	perSocket := socketGPUs(r.GPUsPerSocket)
	switch {
	case perJob > 0 && (perNode > perJob || perTask > perJob || perSocket > perJob):
		return "Failed to ensure --gpus >= --gres=gpu/--gpus-per-node >= --gpus-per-socket"
	case perNode > 0 && (perTask > perNode || perSocket > perNode):
		return "Failed to ensure --gpus >= --gpus-per-task"
	case r.GPUsPerSocket != "" && r.SocketsPerNode == 0:
		return MsgGPUsPerSocket
	}
	if perJob > 0 && perNode > 0 {
		if perJob%perNode != 0 {
			return "Failed to validate job spec, --gpus is not multiple of --gres=gpu/--gpus-per-node"
		}
		nodes := int(perJob / perNode)
		if (r.NodesSet && nodes < r.MinNodes) || (r.MaxNodes > 0 && nodes > r.MaxNodes) {
			return fmt.Sprintf("Failed to validate job spec. Based on --gpu and --gres=gpu/--gpus-per-node required nodes (%d) doesn't fall between min_nodes (%d) and max_nodes (%d) boundaries.",
				nodes, r.MinNodes, r.MaxNodes)
		}
	}
	if perNode > 0 && perSocket > 0 {
		if perNode%perSocket != 0 {
			return "Failed to validate job spec, --gres=gpu/--gpus-per-node not multiple of --gpus-per-socket."
		}
		if r.SocketsPerNode != 0 && int64(r.SocketsPerNode) != perNode/perSocket {
			return "Failed to validate job spec. Based on --gres=gpu/--gpus-per-node and --gpus-per-socket required number of sockets differ from --sockets-per-node."
		}
	}
	if perTask > 0 && perJob > 0 {
		if perJob%perTask != 0 {
			return "Failed to validate job spec, --gpus not multiple of --gpus-per-task"
		}
		if r.NTasks > 0 && int64(r.NTasks) != perJob/perTask {
			return "Failed to validate job spec. Based on --gpus and --gpus-per-task number of requested tasks differ from -n/--ntasks."
		}
	}
	if perTask > 0 && perJob == 0 && r.NTasks == 0 {
		return msgGPUsPerTask
	}
	if perTask > 0 && perNode > 0 {
		if perNode%perTask != 0 {
			return "Failed to validate job spec, --gres=gpu/--gpus-per-node not multiple of --gpus-per-task."
		}
		if r.NTasksPerNode > 0 && int64(r.NTasksPerNode) != perNode/perTask {
			return "Failed to validate job spec. Based on --gres=gpu/--gpus-per-node and --gpus-per-task requested number of tasks per node differ from --ntasks-per-node."
		}
	}
	if perJob > 0 && perJob < int64(r.MinNodes) {
		// Each node needs one of the job's GPUs (the peer's -G3 -N4).
		return "Failed to validate job spec, --gpus < -N"
	}
	return ""
}

// socketGPUs reads --gpus-per-socket's count ("2", "a100:2"); 0 when it
// has none.
func socketGPUs(spec string) int64 {
	if i := strings.LastIndexByte(spec, ':'); i >= 0 {
		spec = spec[i+1:]
	}
	n, err := strconv.ParseInt(spec, 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
