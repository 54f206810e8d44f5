package controller

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// admissionConf is the peer's shape in small: 4 GPU nodes of 8 GPUs and
// 64 CPUs, 2 CPU nodes, three partitions, and tenants with caps.
const admissionConf = `ClusterName=t
SlurmctldHost=localhost
SlurmUser=root
DefMemPerCPU=1000
GresTypes=gpu
NodeName=gpu[1-4] CPUs=64 RealMemory=512000 Gres=gpu:h100:8 Feature=gpu
NodeName=cpu[1-2] CPUs=32 RealMemory=128000 Feature=cpu
PartitionName=normal Nodes=ALL Default=YES MaxTime=2-00:00:00 State=UP
PartitionName=small Nodes=gpu[1-4] MaxNodes=2 MaxTime=1:00:00 AllowQos=fast State=UP
`

const admissionTenants = `TenantName=vision Guarantee=gres/gpu=16 GrpTRES=gres/gpu=24 MaxTRESPerUser=gres/gpu=16
TenantName=nlp Guarantee=gres/gpu=8 BorrowLimit=gres/gpu=4 Partitions=small
UserName=alice Accounts=vision,nlp
UserName=bob Accounts=vision GrpTRES=gres/gpu=4
`

func admissionState(t *testing.T) *confState {
	t.Helper()
	fsys := fstest.MapFS{"slurm.conf": {Data: []byte(admissionConf)}, "tenants.conf": {Data: []byte(admissionTenants)}}
	conf, err := slurmconf.Load(fsys, "slurm.conf")
	if err == nil {
		err = conf.Validate()
	}
	if err != nil {
		t.Fatal(err)
	}
	cs, err := newConfState(conf, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func gpus(n int64) []resource.GRES { return []resource.GRES{{Name: "gpu", Count: n}} }

func TestPreCheck(t *testing.T) {
	cs := admissionState(t)
	tests := map[string]struct {
		user      string
		mod       func(r *job.Request)
		wantCode  api.Code
		wantParts []string
	}{
		"a job that fits": {},
		"-N 999 is refused, not left pending": {
			mod: func(r *job.Request) { r.MinNodes, r.NodesSet = 999, true }, wantCode: api.CodeInvalidNodeCount},
		// Within the partition's 6 nodes but beyond its 4 GPU nodes: the
		// peer's slurmctld refuses -N36 --gres=gpu:1 on its 32 GPU
		// nodes of 40 as an unavailable configuration.
		"-N5 --gres=gpu:1 is more nodes than have GPUs": {
			mod: func(r *job.Request) { r.MinNodes, r.NodesSet, r.GRES = 5, true, gpus(1) }, wantCode: api.CodeNodeConfigUnavailable},
		// --exclusive takes every CPU of a node, with --mem-per-cpu for
		// each: the peer refuses --exclusive --mem-per-cpu=20G (no node
		// has 20G a CPU), takes 7G (64-CPU 500 GB nodes hold it).
		"--exclusive --mem-per-cpu beyond every node": {
			mod: func(r *job.Request) { r.Exclusive, r.MemPerCPU = job.ExclusiveNodes, ptrMB(20480) }, wantCode: api.CodeNodeConfigUnavailable},
		"--exclusive --mem-per-cpu a GPU node holds": {
			mod: func(r *job.Request) { r.Exclusive, r.MemPerCPU = job.ExclusiveNodes, ptrMB(7168) }},
		"-n 100000 is refused": {
			mod: func(r *job.Request) { r.NTasks = 100000 }, wantCode: api.CodeTooManyCPUs},
		"-n 70 spreads over two nodes and fits": {
			mod: func(r *job.Request) { r.NTasks = 70 }},
		// A -N range spreads the shares over its top (the peer takes
		// -N2-4 -n256 and -N2-4 --gpus=32, refuses -n257 and --gpus=33).
		"-N2-4 -n256 fits four nodes": {
			mod: func(r *job.Request) { r.MinNodes, r.MaxNodes, r.NodesSet, r.NTasks = 2, 4, true, 256 }},
		"-N2-4 -n257 is more than four nodes hold": {
			mod:      func(r *job.Request) { r.MinNodes, r.MaxNodes, r.NodesSet, r.NTasks = 2, 4, true, 257 },
			wantCode: api.CodeNodeConfigUnavailable},
		// No more nodes than tasks: the peer refuses -n1 --gpus=16 and
		// --ntasks-per-node=2 --gpus=24, takes -n2 --gpus=16 and
		// --gpus=16 --ntasks-per-node=4.
		"-n1 --gpus=16 needs two nodes for one task": {
			mod: func(r *job.Request) { r.NTasks, r.GPUs = 1, gpus(16) }, wantCode: api.CodeNodeConfigUnavailable},
		"-n2 --gpus=16 fits": {
			mod: func(r *job.Request) { r.NTasks, r.GPUs = 2, gpus(16) }},
		"--gpus=16 --ntasks-per-node=4 fits two nodes": { // sbatch derives -n4
			mod: func(r *job.Request) { r.NTasks, r.NTasksPerNode, r.GPUs = 4, 4, gpus(16) }},
		"--gpus=24 --ntasks-per-node=2 needs three nodes for two tasks": {
			mod:      func(r *job.Request) { r.NTasks, r.NTasksPerNode, r.GPUs = 2, 2, gpus(24) },
			wantCode: api.CodeNodeConfigUnavailable},
		"-N1-2 --gpus=16 fits two nodes": {
			mod: func(r *job.Request) { r.MinNodes, r.MaxNodes, r.NodesSet, r.GPUs = 1, 2, true, gpus(16) }},
		"-N1-2 --gpus=17 is more than two nodes hold": {
			mod:      func(r *job.Request) { r.MinNodes, r.MaxNodes, r.NodesSet, r.GPUs = 1, 2, true, gpus(17) },
			wantCode: api.CodeNodeConfigUnavailable},
		// --ntasks-per-node spreads -n over enough nodes: the peer
		// refuses -N1 -n4 --ntasks-per-node=2 and runs -N1-4 on 2 to 4.
		"-N1 -n4 --ntasks-per-node=2 needs two nodes": {
			mod: func(r *job.Request) {
				r.MinNodes, r.MaxNodes, r.NodesSet, r.NTasks, r.NTasksPerNode = 1, 1, true, 4, 2
			}, wantCode: api.CodeNodeConfigUnavailable},
		"-N1-4 -n4 --ntasks-per-node=2 fits": {
			mod: func(r *job.Request) { r.MinNodes, r.MaxNodes, r.NodesSet, r.NTasks, r.NTasksPerNode = 1, 4, true, 4, 2 }},
		// A range's totals are on its least nodes (the peer takes
		// -N2-50 --gpus-per-node=8 on 32 GPU nodes).
		"-N2-50 --gpus-per-node=8 needs 16 GPUs": {
			mod: func(r *job.Request) { r.MinNodes, r.MaxNodes, r.NodesSet, r.GPUsPerNode = 2, 50, true, gpus(8) }},
		"more GPUs per node than any node has": {
			mod: func(r *job.Request) { r.GPUsPerNode = gpus(9) }, wantCode: api.CodeNodeConfigUnavailable},
		"a GPU total beyond the cluster": {
			mod: func(r *job.Request) { r.GPUs = gpus(40) }, wantCode: api.CodeNodeConfigUnavailable},
		"4 nodes of 8 GPUs fit the cluster but not the tenant's cap of 24": {
			mod: func(r *job.Request) { r.MinNodes, r.NodesSet, r.GPUsPerNode = 4, true, gpus(8) }, wantCode: api.CodeAccountingPolicy},
		"bob's own cap of 4 GPUs": {
			user: "bob", mod: func(r *job.Request) { r.GPUsPerNode = gpus(8) }, wantCode: api.CodeAccountingPolicy},
		"nlp may only use small, and its cap is guarantee plus borrow limit": {
			mod: func(r *job.Request) {
				r.Account, r.Partitions, r.QOS = "nlp", []string{"small"}, "fast"
				r.GPUs = gpus(13)
			}, wantCode: api.CodeAccountingPolicy},
		"nlp within its cap lands in small": {
			mod: func(r *job.Request) {
				r.Account, r.Partitions = "nlp", []string{"normal", "small"}
				r.GPUs = gpus(12)
				r.QOS = "fast"
			}, wantParts: []string{"small"}},
		"a user without a tenants.conf line": {
			user: "mallory", wantCode: api.CodeInvalidAccount},
		"an unknown QOS": {
			mod: func(r *job.Request) { r.QOS = "nosuch" }, wantCode: api.CodeInvalidQOS},
		"a time limit over every partition's MaxTime": {
			mod: func(r *job.Request) { d := 3 * 24 * time.Hour; r.TimeLimit = &d }, wantCode: api.CodeInvalidTimeLimit},
		"UNLIMITED time where no partition allows it": {
			mod: func(r *job.Request) { d := slurmtime.Unlimited; r.TimeLimit = &d }, wantCode: api.CodeInvalidTimeLimit},
		"a time limit some partitions allow narrows the candidates": {
			mod: func(r *job.Request) {
				d := 2 * time.Hour
				r.TimeLimit, r.Partitions, r.QOS = &d, []string{"small", "normal"}, "fast"
			}, wantParts: []string{"normal"}},
		"a GPU type no node has": {
			mod: func(r *job.Request) { r.GPUsPerNode = []resource.GRES{{Name: "gpu", Type: "a100", Count: 1}} }, wantCode: api.CodeNodeConfigUnavailable},
		"-w of a node outside the partition": {
			mod: func(r *job.Request) { r.Partitions, r.NodeList, r.QOS = []string{"small"}, "cpu1", "fast" }, wantCode: api.CodeNodesNotInPartition},
		"more nodes than small's MaxNodes": {
			mod: func(r *job.Request) { r.Partitions, r.MinNodes, r.NodesSet, r.QOS = []string{"small"}, 3, true, "fast" }, wantCode: api.CodeInvalidNodeCount},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			user := tc.user
			if user == "" {
				user = "alice"
			}
			r := job.Request{Name: "x", Script: "#!/bin/sh\n", WorkDir: "/tmp", UserName: user, UserID: 0}
			if tc.mod != nil {
				tc.mod(&r)
			}
			a := &admitted{req: &r}
			aerr := runSteps(
				func() *api.Error { return admitPartitions(cs, a) },
				func() *api.Error { return admitAccount(cs, a) },
				func() *api.Error { return admitTimes(cs, a, time.Unix(0, 0)) },
			)
			if aerr == nil {
				applyDefaults(cs, a)
				aerr = (&Controller{}).preCheck(cs, a)
			}
			var got api.Code
			if aerr != nil {
				got = aerr.Code
			}
			if got != tc.wantCode {
				t.Fatalf("code %q, want %q (%v)", got, tc.wantCode, aerr)
			}
			if tc.wantParts != nil && !equalStrings(a.partitions, tc.wantParts) {
				t.Errorf("partitions %v, want %v", a.partitions, tc.wantParts)
			}
		})
	}
}

func runSteps(steps ...func() *api.Error) *api.Error {
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestAdmitShapeOvercommit: -N1 -n100 needs 100 CPUs on one node, which
// no node has; with -O the tasks share one task's CPUs and the peer runs
// the job, so it is not refused. Nor is -w gpu1 -n100 without -N: sbatch
// sets no most nodes, and the peer adds a node to the listed one.
func TestAdmitShapeOvercommit(t *testing.T) {
	cs := admissionState(t)
	for name, tc := range map[string]struct {
		overcommit bool
		tasks, cpt int
		maxNodes   int
		nodeList   string
		want       api.Code
	}{
		"-N1 -n100":         {false, 100, 1, 1, "", api.CodeNodeConfigUnavailable},
		"-N1 -n100 -O":      {true, 100, 1, 1, "", ""},
		"-w gpu1 -n100":     {false, 100, 1, 0, "gpu1", ""},
		"-w gpu1 -N1 -n100": {false, 100, 1, 1, "gpu1", api.CodeNodeConfigUnavailable},
		"-w gpu1 -n1 -c100": {false, 1, 100, 0, "gpu1", api.CodeNodeConfigUnavailable},
	} {
		t.Run(name, func(t *testing.T) {
			r := job.Request{MinNodes: 1, MaxNodes: tc.maxNodes, NodesSet: true, NTasks: tc.tasks, CPUsPerTask: tc.cpt,
				Overcommit: tc.overcommit, NodeList: tc.nodeList}
			a := &admitted{req: &r, partitions: []string{"normal"}}
			var got api.Code
			if aerr := admitShape(cs, a); aerr != nil {
				got = aerr.Code
			}
			if got != tc.want {
				t.Errorf("admitShape: %q, want %q", got, tc.want)
			}
		})
	}
}

func ptrMB(n int64) *int64 { return &n }
