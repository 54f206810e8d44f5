package command

import (
	"context"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestScontrolShowNodeCoreSpec: a node with CoreSpecCount/CPUSpecList and
// MemSpecLimit prints CPUEfctv below CPUTot, the specialization line after
// RealMemory and CfgTRES with CPUEfctv CPUs, as the peer does
// (testdata/peer/corespec: a 2x32 node with CoreSpecCount=3, a 2x32x2
// node with CoreSpecCount=1, and CPUSpecList=0,1 on one line).
func TestScontrolShowNodeCoreSpec(t *testing.T) {
	tests := map[string]struct {
		file string
		args []string
	}{
		"CoreSpecCount, two nodes": {file: "corespec/show-node.txt", args: []string{"show", "node"}},
		"CPUSpecList, one line":    {file: "corespec/show-node-oneliner.txt", args: []string{"show", "node", "-o"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			path := "testdata/peer/" + tc.file
			nodes := peerNodes(t, path)
			for i, r := range parseRecords(t, path) {
				n := &nodes[i]
				n.EffectiveCPUs = atoi(r.kv["CPUEfctv"])
				n.CoreSpecCount = atoi(r.kv["CoreSpecCount"])
				n.CPUSpecList = r.kv["CPUSpecList"]
				n.MemSpecLimit, _ = strconv.ParseInt(r.kv["MemSpecLimit"], 10, 64)
			}
			f := &fakeController{now: 1795950000, nodes: nodes}
			te := newTestEnv(f, 1795950000)
			if code := Scontrol(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr.String())
			}
			if diff := cmp.Diff(readPeer(t, tc.file), te.stdout.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestNodeSpecUnset: a node without specialization prints no spec line
// and CPUEfctv equal to CPUTot (an older controller sends no
// EffectiveCPUs).
func TestNodeSpecUnset(t *testing.T) {
	nodes := peerNodes(t, "testdata/peer/corespec/show-node.txt")
	n := nodes[0]
	n.EffectiveCPUs = 0
	if got := nodeSpec(&n); got != "" {
		t.Errorf("nodeSpec = %q, want none", got)
	}
	if got := effectiveCPUs(&n); got != n.CPUs {
		t.Errorf("effectiveCPUs = %d, want %d", got, n.CPUs)
	}
}

// TestScontrolShowPartitionCoreSpec: TotalCPUs counts every CPU while
// TRES=cpu= counts the nodes' CPUEfctv, as the peer prints a partition of
// two nodes with two specialized cores each.
func TestScontrolShowPartitionCoreSpec(t *testing.T) {
	const file = "testdata/peer/corespec/show-partition.txt"
	parts := peerPartitionsFrom(t, file)
	parts[0].EffectiveCPUs = 124
	f := &fakeController{now: 1795950000, partitions: parts, nodes: peerNodes(t, "testdata/peer/corespec/show-node.txt")}
	te := newTestEnv(f, 1795950000)
	if code := Scontrol(context.Background(), te.Env, []string{"show", "partition", "normal"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr.String())
	}
	if diff := cmp.Diff(readPeer(t, "corespec/show-partition.txt"), te.stdout.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestScontrolShowNodeCommentExtra: a drained node with Comment= and
// Extra= prints them on their own lines after Reason=, as the peer does
// (testdata/peer/scontrol-sweep/show-node-comment*.txt).
func TestScontrolShowNodeCommentExtra(t *testing.T) {
	for _, tc := range []struct {
		file string
		args []string
	}{
		{file: "scontrol-sweep/show-node-comment.txt", args: []string{"show", "node", "gpu005"}},
		{file: "scontrol-sweep/show-node-comment-oneliner.txt", args: []string{"-o", "show", "node", "gpu005"}},
	} {
		path := "testdata/peer/scontrol-sweep/show-node-comment.txt" // the one a parser reads
		nodes := peerNodes(t, path)
		for i, r := range parseRecords(t, path) {
			nodes[i].Comment, nodes[i].Extra = r.kv["Comment"], r.kv["Extra"]
		}
		f := &fakeController{now: 1795950000, nodes: nodes}
		te := newTestEnv(f, 1795950000)
		if code := Scontrol(context.Background(), te.Env, tc.args); code != 0 {
			t.Fatalf("exit %d: %s", code, te.stderr.String())
		}
		if diff := cmp.Diff(readPeer(t, tc.file), te.stdout.String()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, diff)
		}
	}
}
