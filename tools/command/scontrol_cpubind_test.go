package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestScontrolUpdateCPUBind: scontrol update NodeName=/PartitionName=
// CpuBind= sends the value as scontrol show node prints it, and refuses
// a value the peer refused with the peer's text and exit status
// (testdata/peer/cpubind/update-*.txt).
func TestScontrolUpdateCPUBind(t *testing.T) {
	tests := map[string]struct {
		args     []string
		capture  string // the peer's output and "exit N" for a refusal
		wantBind string // the value sent
	}{
		"node":                   {args: []string{"update", "nodename=gpu005", "cpubind=Core,V"}, wantBind: "verbose,cores"},
		"node off":               {args: []string{"update", "NodeName=gpu005", "CpuBind=off"}, wantBind: "off"},
		"node empty":             {args: []string{"update", "NodeName=gpu005", "CpuBind="}, wantBind: ""},
		"node bad value":         {args: []string{"update", "nodename=gpu005", "cpubind=bogus"}, capture: "update-node-bogus.txt"},
		"partition":              {args: []string{"update", "partitionname=batch", "cpubind=thread"}, wantBind: "threads"},
		"partition bad value":    {args: []string{"update", "partitionname=batch", "cpubind=rank"}, capture: "update-partition-rank.txt"},
		"partition create value": {args: []string{"create", "partitionname=new", "cpubind=no"}, wantBind: "none"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &partFake{fakeController: &fakeController{now: 1795950000}}
			code, out := runPart(f, tc.args...)
			if tc.capture != "" {
				want := readPeer(t, "cpubind/"+tc.capture)
				if diff := cmp.Diff(want, out+"exit "+string(rune('0'+code))+"\n"); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
				if len(f.nodeUpds)+len(f.updates) != 0 {
					t.Errorf("a refused value was sent")
				}
				return
			}
			var got *string
			switch {
			case code != 0:
				t.Fatalf("exit %d: %s", code, out)
			case len(f.nodeUpds) == 1:
				got = f.nodeUpds[0].CPUBind
			case len(f.updates) == 1:
				got = f.updates[0].CPUBind
			}
			if got == nil || *got != tc.wantBind {
				t.Errorf("sent CpuBind %v, want %q", got, tc.wantBind)
			}
		})
	}
}

// TestScontrolShowCPUBind: CpuBind in scontrol show node (after Arch=)
// and show partition (after Default=, with the peer's double space),
// multi-line and -o, as the peer printed them for gpu005 with
// CpuBind=verbose,cores and batch with CpuBind=threads.
func TestScontrolShowCPUBind(t *testing.T) {
	node := api.Node{Name: "gpu005", CPUBind: "verbose,cores", CoresPerSocket: 32, CPUs: 64, Sockets: 2, ThreadsPerCore: 1, State: api.NodeIdle}
	part := api.Partition{Name: "batch", CPUBind: "threads", State: "UP"}
	tests := map[string]struct {
		args    []string
		capture string
		prefix  string // compare the output up to the end of this text
	}{
		"node":                {[]string{"show", "node", "gpu005"}, "show-node-gpu005.txt", "CoresPerSocket=32 \n"},
		"node -o":             {[]string{"-o", "show", "node", "gpu005"}, "show-node-gpu005-oneliner.txt", "CoresPerSocket=32  "},
		"partition":           {[]string{"show", "partition", "batch"}, "show-partition-batch.txt", "QoS=N/A\n"},
		"partition -o":        {[]string{"-o", "show", "partition", "batch"}, "show-partition-batch-oneliner.txt", "QoS=N/A "},
		"partition unset key": {[]string{"show", "partition", "batch"}, "", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := part
			if tc.capture == "" {
				p.CPUBind = ""
			}
			f := &fakeController{now: 1795950000, nodes: []api.Node{node}, partitions: []api.Partition{p}}
			te := newTestEnv(f, 1795950000)
			if code := Scontrol(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			got := te.stdout.String()
			if tc.capture == "" {
				if !strings.Contains(got, " Default=NO QoS=N/A\n") {
					t.Errorf("a partition without CpuBind: %q", got)
				}
				return
			}
			want := readPeer(t, "cpubind/"+tc.capture)
			want = want[:strings.Index(want, tc.prefix)+len(tc.prefix)]
			if i := strings.Index(got, tc.prefix); i >= 0 {
				got = got[:i+len(tc.prefix)]
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
