package controller

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

const memPartitions = `PartitionName=emnode Nodes=cpu1 MaxMemPerNode=4000
PartitionName=emcpu Nodes=cpu1 MaxMemPerCPU=2000
`

// TestMemLimitsSubmit: what the peer's slurmctld makes of each
// submission: MaxMemPerCPU raises -c (or --mincpus for --mem) and lowers
// the memory per CPU; with EnforcePartLimits a job over MaxMemPerNode is
// refused with the peer's sbatch text; without it the job is accepted
// (it then waits as MaxMemPerLimit).
func TestMemLimitsSubmit(t *testing.T) {
	mb := func(v int64) *int64 { return &v }
	type out struct {
		Msg                  string
		CPUsPerTask, MinCPUs int
		MemPerCPU            int64
	}
	tests := map[string]struct {
		enforce, part string
		mod           func(r *job.Request)
		want          out
	}{
		"--mem-per-cpu=3000: -c2, 1500 per CPU (peer CPUs/Task=2 MinMemoryCPU=1500M)": {
			"NO", "emcpu", func(r *job.Request) { r.MemPerCPU = mb(3000) }, out{"", 2, 0, 1500}},
		"-c2 --mem-per-cpu=5000: -c6, 1667 per CPU (peer)": {
			"NO", "emcpu", func(r *job.Request) { r.MemPerCPU, r.CPUsPerTask = mb(5000), 2 }, out{"", 6, 0, 1667}},
		"--mem-per-cpu=2000 fits": {
			"NO", "emcpu", func(r *job.Request) { r.MemPerCPU = mb(2000) }, out{"", 0, 0, 2000}},
		"--mem=8000: --mincpus 4 (peer MinCPUsNode=4)": {
			"NO", "emcpu", func(r *job.Request) { r.MemPerNode = mb(8000) }, out{"", 0, 4, 0}},
		"--mem=5000 over MaxMemPerNode, NO: accepted": {
			"NO", "emnode", func(r *job.Request) { r.MemPerNode = mb(5000) }, out{"", 0, 0, 0}},
		"--mem=5000 over MaxMemPerNode, ALL: the peer's refusal": {
			"ALL", "emnode", func(r *job.Request) { r.MemPerNode = mb(5000) },
			out{"Memory required by task is not available", 0, 0, 0}},
		"--mem=0 over MaxMemPerNode, ANY: the peer's refusal": {
			"ANY", "emnode", func(r *job.Request) { r.MemPerNode = mb(0) },
			out{"Memory required by task is not available", 0, 0, 0}},
		"-n2 --mem-per-cpu=3000 under MaxMemPerNode=4000, ALL: accepted as on the peer": {
			"ALL", "emnode", func(r *job.Request) { r.MemPerCPU, r.NTasks = mb(3000), 2 }, out{"", 0, 0, 3000}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cs := limitsState(t, "EnforcePartLimits="+tc.enforce+"\n"+memPartitions)
			r := job.Request{Name: "x", Script: "#!/bin/sh\n", WorkDir: "/tmp", UserName: "u", UserID: 1000,
				Partitions: []string{tc.part}, Hold: true}
			tc.mod(&r)
			a := &admitted{req: &r}
			aerr := runSteps(
				func() *api.Error { return admitPartitions(cs, a) },
				func() *api.Error { return admitTimes(cs, a, time.Unix(0, 0)) },
			)
			if aerr == nil {
				applyDefaults(cs, a)
				applyMemLimits(cs, a)
				aerr = (&Controller{}).preCheck(cs, a)
			}
			got := out{CPUsPerTask: r.CPUsPerTask, MinCPUs: r.MinCPUs}
			if r.MemPerCPU != nil {
				got.MemPerCPU = *r.MemPerCPU
			}
			if aerr != nil {
				got = out{Msg: aerr.Error()}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
