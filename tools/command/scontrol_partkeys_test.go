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
