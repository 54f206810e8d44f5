package controller

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// TestShapeRefusalLines: a job no node can hold is refused with the line
// the peer's sbatch printed before "Batch job submission failed:
// Requested node configuration is not available" (the refusal's detail),
// or with none where the peer printed none; -w and -x naming the same
// node is the peer's "Invalid node name specified" alone.
func TestShapeRefusalLines(t *testing.T) {
	cs := admissionState(t)
	mb := func(n int64) *int64 { return &n }
	tests := map[string]struct {
		mod        func(r *job.Request)
		wantCode   api.Code
		wantDetail string
	}{
		"-c 65": {mod: func(r *job.Request) { r.CPUsPerTask = 65 },
			wantCode: api.CodeNodeConfigUnavailable, wantDetail: "CPU count per node can not be satisfied"},
		"--ntasks-per-node=65": {mod: func(r *job.Request) { r.NTasksPerNode = 65 },
			wantCode: api.CodeNodeConfigUnavailable, wantDetail: "CPU count per node can not be satisfied"},
		"--mincpus=70": {mod: func(r *job.Request) { r.MinCPUs = 70 },
			wantCode: api.CodeNodeConfigUnavailable, wantDetail: "CPU count per node can not be satisfied"},
		"-c 65 --mem=600G: CPUs are named first": {mod: func(r *job.Request) { r.CPUsPerTask, r.MemPerNode = 65, mb(614400) },
			wantCode: api.CodeNodeConfigUnavailable, wantDetail: "CPU count per node can not be satisfied"},
		"--mem=600G": {mod: func(r *job.Request) { r.MemPerNode = mb(614400) },
			wantCode: api.CodeNodeConfigUnavailable, wantDetail: "Memory specification can not be satisfied"},
		"--mem-per-cpu=600G": {mod: func(r *job.Request) { r.MemPerCPU = mb(614400) },
			wantCode: api.CodeNodeConfigUnavailable, wantDetail: "Memory specification can not be satisfied"},
		"--mem-per-cpu=10G -c 64: per CPU it fits a node, so no line": {mod: func(r *job.Request) { r.MemPerCPU, r.CPUsPerTask = mb(10240), 64 },
			wantCode: api.CodeNodeConfigUnavailable},
		"-N1 -n100: one task fits, so no line": {mod: func(r *job.Request) { r.MinNodes, r.NodesSet, r.NTasks = 1, true, 100 },
			wantCode: api.CodeNodeConfigUnavailable},
		"--gres=gpu:9": {mod: func(r *job.Request) { r.GRES = gpus(9) },
			wantCode: api.CodeNodeConfigUnavailable},
		"--gres=gpu:abc": {mod: func(r *job.Request) { r.GRES = []resource.GRES{{Name: "gpu", Type: "abc", Count: 1}} },
			wantCode: api.CodeNodeConfigUnavailable},
		"-x every node": {mod: func(r *job.Request) { r.Exclude = "gpu[1-4],cpu[1-2]" },
			wantCode: api.CodeNodeConfigUnavailable},
		"-x every node with -c 65 still names no line": {mod: func(r *job.Request) { r.Exclude, r.CPUsPerTask = "gpu[1-4],cpu[1-2]", 65 },
			wantCode: api.CodeNodeConfigUnavailable},
		"-w and -x on the same node": {mod: func(r *job.Request) { r.NodeList, r.Exclude = "gpu1", "gpu1" },
			wantCode: api.CodeInvalidNodeName},
		"-x of some nodes fits": {mod: func(r *job.Request) { r.Exclude = "gpu[1-3]" }},
		// The peer's nodes have no TmpDisk: sbatch --tmp=10 --wrap=true.
		"--tmp=10": {mod: func(r *job.Request) { r.TmpDisk = 10 },
			wantCode: api.CodeNodeConfigUnavailable, wantDetail: "Temporary disk specification can not be satisfied"},
		"--tmp=10 --mem=600G: memory is named first": {mod: func(r *job.Request) { r.TmpDisk, r.MemPerNode = 10, mb(614400) },
			wantCode: api.CodeNodeConfigUnavailable, wantDetail: "Memory specification can not be satisfied"},
		"--tmp=0 fits": {mod: func(r *job.Request) { r.TmpDisk = 0 }},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := job.Request{}
			tc.mod(&r)
			a := &admitted{req: &r, partitions: []string{"normal"}}
			var gotCode api.Code
			var gotDetail string
			if aerr := admitShape(cs, a); aerr != nil {
				gotCode, gotDetail = aerr.Code, aerr.Detail
			}
			if gotCode != tc.wantCode || gotDetail != tc.wantDetail {
				t.Errorf("admitShape: %q %q, want %q %q", gotCode, gotDetail, tc.wantCode, tc.wantDetail)
			}
		})
	}
}

// TestTmpDiskFits: --tmp asks for at least that much TmpDisk per node,
// compared with the node line (node_scheduler.c's disk_ok).
func TestTmpDiskFits(t *testing.T) {
	node := &slurmconf.Node{Name: "n1", CPUs: 4, RealMemory: 1000, TmpDisk: 2000}
	for tmp, want := range map[int64]bool{0: true, 1999: true, 2000: true, 2001: false} {
		if got := perNodeNeed(&job.Request{TmpDisk: tmp}).fits(node); got != want {
			t.Errorf("--tmp=%d on TmpDisk=2000: fits %v, want %v", tmp, got, want)
		}
	}
}

// TestTasksPerSocketFit: --ntasks-per-node beyond --ntasks-per-socket on
// each of a node's sockets does not fit it (the peer refuses
// --ntasks-per-node=8 --ntasks-per-socket=1 on its 2-socket nodes).
func TestTasksPerSocketFit(t *testing.T) {
	node := &slurmconf.Node{CPUs: 64, Sockets: 2, RealMemory: 512000}
	for _, tc := range []struct {
		perNode, perSocket int
		want               bool
	}{{8, 1, false}, {2, 1, true}, {8, 4, true}, {8, 0, true}} {
		r := &job.Request{NTasks: tc.perNode, NTasksPerNode: tc.perNode, NTasksPerSocket: tc.perSocket}
		if got := perNodeNeed(r).fits(node); got != tc.want {
			t.Errorf("--ntasks-per-node=%d --ntasks-per-socket=%d fits a 2-socket node: %v, want %v", tc.perNode, tc.perSocket, got, tc.want)
		}
	}
}

// TestConstraintRefusalLines: with -C, Slurm's line is about the nodes
// the constraint allows, and there is none when no node passes it (the
// peer's --mincpus=70 -C 'gpu|cpu', --mem=600G -C 'gpu|cpu' and
// -c 65 -C 'gpu&cpu').
func TestConstraintRefusalLines(t *testing.T) {
	cs := admissionState(t)
	mb := func(n int64) *int64 { return &n }
	for name, tc := range map[string]struct {
		mod        func(r *job.Request)
		wantCode   api.Code
		wantDetail string
	}{
		"--mincpus=70 -C 'gpu|cpu'": {mod: func(r *job.Request) { r.MinCPUs, r.Constraint = 70, "gpu|cpu" },
			wantCode: api.CodeNodeConfigUnavailable, wantDetail: "CPU count per node can not be satisfied"},
		"--mem=600G -C gpu": {mod: func(r *job.Request) { r.MemPerNode, r.Constraint = mb(614400), "gpu" },
			wantCode: api.CodeNodeConfigUnavailable, wantDetail: "Memory specification can not be satisfied"},
		"-c 65 -C 'gpu&cpu': no node passes -C, no line": {mod: func(r *job.Request) { r.CPUsPerTask, r.Constraint = 65, "gpu&cpu" },
			wantCode: api.CodeNodeConfigUnavailable},
		"-c 40 -C cpu: only the 32-CPU nodes count": {mod: func(r *job.Request) { r.CPUsPerTask, r.Constraint = 40, "cpu" },
			wantCode: api.CodeNodeConfigUnavailable, wantDetail: "CPU count per node can not be satisfied"},
		"-c 40 -C gpu fits": {mod: func(r *job.Request) { r.CPUsPerTask, r.Constraint = 40, "gpu" }},
	} {
		t.Run(name, func(t *testing.T) {
			r := job.Request{}
			tc.mod(&r)
			a := &admitted{req: &r, partitions: []string{"normal"}}
			var gotCode api.Code
			var gotDetail string
			if aerr := admitConstraint(cs, a); aerr != nil {
				gotCode, gotDetail = aerr.Code, aerr.Detail
			}
			if gotCode != tc.wantCode || gotDetail != tc.wantDetail {
				t.Errorf("admitConstraint: %q %q, want %q %q", gotCode, gotDetail, tc.wantCode, tc.wantDetail)
			}
		})
	}
}
