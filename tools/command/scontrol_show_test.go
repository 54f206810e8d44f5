package command

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestScontrolShowNodeList: each name of a node list prints in the list's
// order, a missing one as "Node X not found" with exit 1, and a list
// hostlist_create refuses is an error naming it; the texts are the
// peer's (testdata/peer/scontrol-sweep).
func TestScontrolShowNodeList(t *testing.T) {
	list := readPeer(t, "scontrol-sweep/show-node-list.txt")
	tests := map[string]struct {
		args             []string
		wantOut, wantErr string
		wantExit         int
	}{
		"names in list order, one missing": {args: []string{"show", "node", "cpu008,nosuch,gpu[031-032]"},
			wantOut: list, wantExit: 1},
		"every name missing": {args: []string{"show", "nodes", "nosuch,other"},
			wantOut: "Node nosuch not found\nNode other not found\n", wantExit: 1},
		"quiet hides the missing": {args: []string{"-Q", "show", "node", "nosuch"}, wantExit: 1},
		"unclosed bracket ends a name": {args: []string{"show", "node", "cpu[001-002"},
			wantOut: "Node cpu] not found\n", wantExit: 1},
		"stray closing bracket is part of a name": {args: []string{"show", "node", "cpu001]"},
			wantOut: "Node cpu001] not found\n", wantExit: 1},
		"strtoul reads a sign": {args: []string{"show", "node", "cpu[+1]"},
			wantOut: "Node cpu01 not found\n", wantExit: 1},
		"range past MAX_RANGE": {args: []string{"show", "node", "cpu[1-100000]"},
			wantErr:  "scontrol: error: _parse_single_range: Too many hosts in range `1-100000'\nunable to parse node list cpu[1-100000]\n",
			wantExit: 1},
		"bad range": {args: []string{"show", "node", "cpu[3-1]"},
			wantErr:  "scontrol: error: _parse_single_range: Invalid range: `3-1'\nunable to parse node list cpu[3-1]\n",
			wantExit: 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{now: 1795950000, nodes: nodesFromText(t, list)}
			te := newTestEnv(f, 1795950000)
			code := Scontrol(context.Background(), te.Env, tc.args)
			if diff := cmp.Diff(tc.wantOut, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantErr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if code != tc.wantExit {
				t.Errorf("exit = %d, want %d", code, tc.wantExit)
			}
		})
	}
}

// TestScontrolShowPartitionMemory: a partition shows its own DefMemPerCPU
// and MaxMemPerNode, not the cluster's it inherits (the peer has
// DefMemPerCPU=1024 in slurm.conf and prints DefMemPerNode=UNLIMITED).
func TestScontrolShowPartitionMemory(t *testing.T) {
	peer := readPeer(t, "scontrol-sweep/show-partition-normal.txt")
	tests := map[string]struct {
		defMem, maxMem int64
		inherited      []string
		want           string
	}{
		"inherited from the cluster": {defMem: 1024, maxMem: 0, inherited: []string{"DefMemPerCPU", "DefMemPerGPU", "MaxMemPerNode"}, want: peer},
		"set by the partition": {defMem: 4000, maxMem: 200000, want: replaceOnce(t, peer,
			"DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED", "DefMemPerCPU=4000 MaxMemPerNode=200000")},
		"set by the partition to the cluster's value": {defMem: 1024, maxMem: 200000, inherited: []string{"DefMemPerGPU"},
			want: replaceOnce(t, peer, "DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED", "DefMemPerCPU=1024 MaxMemPerNode=200000")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			parts := peerPartitionsFrom(t, "testdata/peer/scontrol-sweep/show-partition-normal.txt")
			parts[0].DefMemPerCPU, parts[0].MaxMemPerNode, parts[0].InheritedMemory = tc.defMem, tc.maxMem, tc.inherited
			f := &fakeController{now: 1795950000, partitions: parts, nodes: peerNodes(t, "testdata/peer/nodes.txt")}
			te := newTestEnv(f, 1795950000)
			if code := Scontrol(context.Background(), te.Env, []string{"show", "partition", "normal"}); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("%q not in %q", old, s)
	}
	return strings.Replace(s, old, new, 1)
}

// TestScontrolVerboseRecords: with -v scontrol says when the records were
// updated and how many it got, all of them whatever was asked, as the
// peer's "scontrol -v show node gpu001" prints
// "last_update_time=2026-11-30T22:22:33, records=40"; -Q hides it, and a
// missing job has none.
func TestScontrolVerboseRecords(t *testing.T) {
	list := readPeer(t, "scontrol-sweep/show-node-list.txt")
	f := &fakeController{now: 1795950000, nodes: nodesFromText(t, list)}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-v", "show", "node", "nosuch"}, "last_update_time=" + time.Unix(1795950000, 0).Format("2006-01-02T15:04:05") + ", records=4\nNode nosuch not found\n"},
		{[]string{"-v", "-Q", "show", "node", "nosuch"}, ""},
	} {
		te := newTestEnv(f, 1795950000)
		Scontrol(context.Background(), te.Env, tc.args)
		if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
			t.Errorf("%v (-want +got):\n%s", tc.args, diff)
		}
	}
	// The verbose command takes nothing after it (the peer: exit 1).
	te := newTestEnv(f, 1795950000)
	if code := Scontrol(context.Background(), te.Env, []string{"verbose", "show", "job", "1"}); code != 1 ||
		te.stderr.String() != "too many arguments for verbose keyword\n" {
		t.Errorf("verbose with arguments: exit %d, stderr %q", code, te.stderr.String())
	}
}
