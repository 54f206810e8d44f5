package controller

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// partKeysConf is the peer's experiment: igpu (DefCPUPerGPU=4), iexcl
// (ExclusiveUser=YES) and iroot (RootOnly=YES), under the cluster's
// DefCPUPerGPU=2.
const partKeysConf = `DefCPUPerGPU=2
PartitionName=igpu Nodes=cpu1 DefCPUPerGPU=4 State=UP
PartitionName=iexcl Nodes=cpu1 ExclusiveUser=YES State=UP
PartitionName=iroot Nodes=cpu1 RootOnly=YES State=UP
`

// TestPartKeysSubmit: what the peer's slurmctld makes of each submission
// (scontrol show job's CpusPerTres, OverSubscribe; sbatch's message).
func TestPartKeysSubmit(t *testing.T) {
	gpus := func(r *job.Request) { r.GPUs = []resource.GRES{{Name: "gpu", Count: 2}} }
	type out struct {
		Msg        string
		CPUsPerGPU int
		Default    bool
		Exclusive  job.Exclusive
		Partitions []string
	}
	tests := map[string]struct {
		uid   uint32
		parts []string
		mod   func(r *job.Request)
		want  out
	}{
		"--gpus=2 in igpu: gpu:4 (peer NumCPUs=8 CpusPerTres=gpu:4)": {1000, []string{"igpu"}, gpus,
			out{CPUsPerGPU: 4, Default: true, Partitions: []string{"igpu"}}},
		"--gpus=2 -c3 in igpu: no default (peer CPUs/Task=3)": {1000, []string{"igpu"},
			func(r *job.Request) { gpus(r); r.CPUsPerTask = 3 }, out{Partitions: []string{"igpu"}}},
		"--cpus-per-gpu=1 in igpu: the user's (peer gres:gpu:1)": {1000, []string{"igpu"},
			func(r *job.Request) { gpus(r); r.CPUsPerGPU = 1 }, out{CPUsPerGPU: 1, Partitions: []string{"igpu"}}},
		"--gpus=2 in normal: the cluster's (peer gpu:2)": {1000, []string{"normal"}, gpus,
			out{CPUsPerGPU: 2, Default: true, Partitions: []string{"normal"}}},
		"no GPUs: nothing": {1000, []string{"igpu"}, func(*job.Request) {}, out{Partitions: []string{"igpu"}}},
		"iexcl: --exclusive=user (peer OverSubscribe=USER)": {1000, []string{"iexcl"}, func(*job.Request) {},
			out{Exclusive: job.ExclusiveUser, Partitions: []string{"iexcl"}}},
		"iexcl with --exclusive: kept": {1000, []string{"iexcl"}, func(r *job.Request) { r.Exclusive = job.ExclusiveNodes },
			out{Exclusive: job.ExclusiveNodes, Partitions: []string{"iexcl"}}},
		"iroot by a user: the peer's refusal": {1000, []string{"iroot"}, func(*job.Request) {},
			out{Msg: "Access/permission denied"}},
		"iroot by root": {0, []string{"iroot"}, func(*job.Request) {}, out{Partitions: []string{"iroot"}}},
		"iroot,normal by a user: the other partition": {1000, []string{"iroot", "normal"}, func(*job.Request) {},
			out{Partitions: []string{"normal"}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cs := limitsState(t, partKeysConf)
			r := job.Request{Name: "x", Script: "#!/bin/sh\n", WorkDir: "/tmp", UserName: "u", UserID: tc.uid,
				Partitions: tc.parts, Hold: true}
			tc.mod(&r)
			a := &admitted{req: &r}
			aerr := runSteps(
				func() *api.Error { return admitPartitions(cs, a) },
				func() *api.Error { return checkRootOnly(cs, a) },
			)
			if aerr == nil {
				applyDefaults(cs, a)
				applyPartKeys(cs, a)
			}
			got := out{CPUsPerGPU: r.CPUsPerGPU, Default: r.CPUsPerGPUDefault, Exclusive: r.Exclusive, Partitions: r.Partitions}
			if aerr != nil {
				got = out{Msg: aerr.Error()}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
