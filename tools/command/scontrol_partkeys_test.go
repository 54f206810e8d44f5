package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestScontrolShowPartitionKeys: DefCPUPerGPU, MaxCPUsPerNode,
// ExclusiveUser and RootOnly as the peer prints them (its igpu, imax,
// iexcl and iroot partitions, captured in testdata/peer/partkeys).
func TestScontrolShowPartitionKeys(t *testing.T) {
	peer := readPeer(t, "scontrol-sweep/show-partition-normal.txt")
	tests := map[string]struct {
		set     func(p *api.Partition)
		capture string // the peer's line of the key
		from    string
	}{
		"igpu": {func(p *api.Partition) { p.DefCPUPerGPU = 4 }, "JobDefaults=DefCpuPerGPU=4", "JobDefaults=(null)"},
		"imax": {func(p *api.Partition) { p.MaxCPUsPerNode = 16 }, "LLN=NO MaxCPUsPerNode=16", "LLN=NO MaxCPUsPerNode=UNLIMITED"},
		"iexcl": {func(p *api.Partition) { p.ExclusiveUser = true }, "DisableRootJobs=NO ExclusiveUser=YES GraceTime=0",
			"DisableRootJobs=NO ExclusiveUser=NO GraceTime=0"},
		"iroot": {func(p *api.Partition) { p.RootOnly = true }, "PriorityTier=1 RootOnly=YES ReqResv=NO",
			"RootOnly=NO ReqResv=NO"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if captured := readPeer(t, "partkeys/show-partition-"+name+".txt"); !strings.Contains(captured, tc.capture) {
				t.Fatalf("the peer's capture has no %q", tc.capture)
			}
			want := replaceOnce(t, peer, tc.from, strings.TrimPrefix(tc.capture, "PriorityTier=1 "))
			parts := peerPartitionsFrom(t, "testdata/peer/scontrol-sweep/show-partition-normal.txt")
			parts[0].DefMemPerCPU, parts[0].InheritedMemory = 1024, []string{"DefMemPerCPU", "DefMemPerGPU", "MaxMemPerNode"}
			tc.set(&parts[0])
			f := &fakeController{now: 1795950000, partitions: parts, nodes: peerNodes(t, "testdata/peer/nodes.txt")}
			te := newTestEnv(f, 1795950000)
			if code := Scontrol(context.Background(), te.Env, []string{"show", "partition", "normal"}); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestCPUsPerTRES: the peer's CpusPerTres of a job under DefCPUPerGPU=4
// (gpu:4) and of one with --cpus-per-gpu=1 (gres:gpu:1).
func TestCPUsPerTRES(t *testing.T) {
	tests := map[string]struct {
		job  api.Job
		want string
	}{
		"partition default": {api.Job{CPUsPerGPU: 4, CPUsPerGPUDefault: true}, "gpu:4"},
		"--cpus-per-gpu=1":  {api.Job{CPUsPerGPU: 1}, "gres:gpu:1"},
		"neither":           {api.Job{}, ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := cpusPerTRES(&tc.job); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestScontrolShowPartitionRoute: Alternate= after AllocNodes= (only when
// set) and LLN=, on both of show partition's layouts, as the peer printed
// a partition created with Alternate=batch LLN=yes Priority=5.
func TestScontrolShowPartitionRoute(t *testing.T) {
	for _, layout := range []string{"", "-o"} {
		t.Run("layout"+layout, func(t *testing.T) {
			want := readPeer(t, "partroute/show-partition-tproute"+layout+".txt")
			parts := []api.Partition{{Name: "tproute", Nodes: "gpu[001-002]", NodeNames: []string{"gpu001", "gpu002"},
				TotalNodes: 2, TotalCPUs: 128, State: "UP", MaxTime: api.UnlimitedSeconds, MaxNodes: -1, MinNodes: 1,
				PriorityTier: 5, PriorityJobFactor: 5, PreemptMode: "REQUEUE", OverSubscribe: "NO",
				Alternate: "batch", LLN: true}}
			f := &fakeController{now: 1795950000, partitions: parts, nodes: peerNodes(t, "testdata/peer/nodes.txt")}
			te := newTestEnv(f, 1795950000)
			args := []string{"show", "partition", "tproute"}
			if layout != "" {
				args = append([]string{layout}, args...)
			}
			if code := Scontrol(context.Background(), te.Env, args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
