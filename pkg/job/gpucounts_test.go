package job

import (
	"errors"
	"testing"

	"github.com/loamhpc/loam/pkg/resource"
)

// TestGPUCountsAgree: GPU counts per job, node, socket and task that
// disagree are refused with the lines the peer's sbatch prints (the
// detail, then "Invalid generic resource (gres) specification").
func TestGPUCountsAgree(t *testing.T) {
	gpus := func(n int64) []resource.GRES { return []resource.GRES{{Name: "gpu", Count: n}} }
	tests := map[string]struct {
		req  Request
		want string // the detail; "" accepted
	}{
		"--gpus=3 -N2 --gpus-per-node=2": {Request{GPUs: gpus(3), GPUsPerNode: gpus(2), NodesSet: true, MinNodes: 2, MaxNodes: 2},
			"Failed to validate job spec, --gpus is not multiple of --gres=gpu/--gpus-per-node"},
		"--gpus=4 -N3 --gpus-per-node=2": {Request{GPUs: gpus(4), GPUsPerNode: gpus(2), NodesSet: true, MinNodes: 3, MaxNodes: 3},
			"Failed to validate job spec. Based on --gpu and --gres=gpu/--gpus-per-node required nodes (2) doesn't fall between min_nodes (3) and max_nodes (3) boundaries."},
		"--gpus=4 --gpus-per-node=2": {Request{GPUs: gpus(4), GPUsPerNode: gpus(2)}, ""},
		"-G3 -N4":                    {Request{GPUs: gpus(3), NodesSet: true, MinNodes: 4, MaxNodes: 4}, "Failed to validate job spec, --gpus < -N"},
		"-G4 -N4":                    {Request{GPUs: gpus(4), NodesSet: true, MinNodes: 4, MaxNodes: 4}, ""},
		"--gpus=4 --gres=gpu:2 -N2":  {Request{GPUs: gpus(4), GRES: gpus(2), NodesSet: true, MinNodes: 2, MaxNodes: 2}, ""},
		"--gpus=3 --gpus-per-task=2 -n1": {Request{GPUs: gpus(3), GPUsPerTask: gpus(2), NTasks: 1},
			"Failed to validate job spec, --gpus not multiple of --gpus-per-task"},
		"--gpus=4 --gpus-per-task=2 -n3": {Request{GPUs: gpus(4), GPUsPerTask: gpus(2), NTasks: 3},
			"Failed to validate job spec. Based on --gpus and --gpus-per-task number of requested tasks differ from -n/--ntasks."},
		"--gpus=4 --gpus-per-task=2 -n2": {Request{GPUs: gpus(4), GPUsPerTask: gpus(2), NTasks: 2}, ""},
		"--gpus-per-node=3 --gpus-per-socket=2 --sockets-per-node=2": {Request{GPUsPerNode: gpus(3), GPUsPerSocket: "2", SocketsPerNode: 2},
			"Failed to validate job spec, --gres=gpu/--gpus-per-node not multiple of --gpus-per-socket."},
		"--gpus-per-node=4 --gpus-per-socket=2 --sockets-per-node=1": {Request{GPUsPerNode: gpus(4), GPUsPerSocket: "2", SocketsPerNode: 1},
			"Failed to validate job spec. Based on --gres=gpu/--gpus-per-node and --gpus-per-socket required number of sockets differ from --sockets-per-node."},
		"--gpus-per-node=4 --gpus-per-socket=2 --sockets-per-node=2": {Request{GPUsPerNode: gpus(4), GPUsPerSocket: "2", SocketsPerNode: 2}, ""},
		// No count above a wider one, checked first.
		"-G4 --gpus-per-node=8": {Request{GPUs: gpus(4), GPUsPerNode: gpus(8)},
			"Failed to ensure --gpus >= --gres=gpu/--gpus-per-node >= --gpus-per-socket"},
		"-G2 --gpus-per-task=4 -n1": {Request{GPUs: gpus(2), GPUsPerTask: gpus(4), NTasks: 1},
			"Failed to ensure --gpus >= --gres=gpu/--gpus-per-node >= --gpus-per-socket"},
		"--gpus-per-node=2 --gpus-per-task=4 -n2": {Request{GPUsPerNode: gpus(2), GPUsPerTask: gpus(4), NTasks: 2},
			"Failed to ensure --gpus >= --gpus-per-task"},
		"--gres=gpu:1 --gpus-per-task=2": {Request{GRES: gpus(1), GPUsPerTask: gpus(2)},
			"Failed to ensure --gpus >= --gpus-per-task"},
		"--gpus-per-node=4 --gpus-per-task=3 -n3": {Request{GPUsPerNode: gpus(4), GPUsPerTask: gpus(3), NTasks: 3},
			"Failed to validate job spec, --gres=gpu/--gpus-per-node not multiple of --gpus-per-task."},
		"--gpus-per-node=2 --gpus-per-task=1 --ntasks-per-node=4": {Request{GPUsPerNode: gpus(2), GPUsPerTask: gpus(1), NTasks: 4, NTasksPerNode: 4},
			"Failed to validate job spec. Based on --gres=gpu/--gpus-per-node and --gpus-per-task requested number of tasks per node differ from --ntasks-per-node."},
		"--gpus-per-task=2 alone": {Request{GPUsPerTask: gpus(2)},
			"Failed to validate job spec. --gpus-per-task used without either --gpus or -n/--ntasks is not allowed."},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := tc.req.checkGRES()
			var inv *InvalidError
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (!errors.As(err, &inv) || inv.Detail != tc.want || inv.Msg != MsgInvalidGRES):
				t.Errorf("error %#v, want detail %q", err, tc.want)
			}
		})
	}
}
