package command

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
)

// TestSinfoClusters: -M/--clusters and SLURM_CLUSTERS are refused as the
// peer refuses them (it has no accounting database to find clusters in),
// SLURM_CLUSTERS before any option is read.
func TestSinfoClusters(t *testing.T) {
	notok := func(what string) string {
		return "sinfo: error: Problem talking to database\n" + "sinfo: error: " + what + "\n"
	}
	cases := map[string]struct {
		args   []string
		env    string
		stderr string
	}{
		"one cluster": {args: []string{"-M", "peer"},
			stderr: notok("'peer' can't be reached now, or it is an invalid entry for --cluster.  " +
				"Use 'sacctmgr list clusters' to see available clusters.")},
		"a list": {args: []string{"--clusters=peer,x", "-N"},
			stderr: notok("'peer,x' can't be reached now, or it is an invalid entry for --cluster.  " +
				"Use 'sacctmgr list clusters' to see available clusters.")},
		"all in any case": {args: []string{"-M", "ALL"},
			stderr: notok("No clusters can be reached now. Contact your admin to resolve the problem.")},
		"from the environment": {args: []string{"--version"}, env: "SLURM_CLUSTERS=x",
			stderr: notok("'x' can't be reached now, or it is an invalid entry for SLURM_CLUSTERS.  " +
				"Use 'sacctmgr list clusters' to see available clusters.")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(&fakeController{now: 1795990100}, 1795990100)
			if tc.env != "" {
				te.Environ = append(te.Environ, tc.env)
			}
			code := Sinfo(context.Background(), te.Env, tc.args)
			if diff := cmp.Diff(tc.stderr, te.stderr.String()); diff != "" || code != 1 || te.stdout.Len() != 0 {
				t.Errorf("exit %d, stdout %q; stderr (-want +got):\n%s", code, te.stdout, diff)
			}
		})
	}
}

// TestSinfoReasonLines: with -R and a format that prints the partition,
// Slurm starts a line for every partition and drops each listed node
// into the first line it fits, whatever its partition (a drained node of
// all three partitions shows under the first), leaving the other
// partitions' lines empty; an empty line prints reason "none" and user
// root, as on the peer.
func TestSinfoReasonLines(t *testing.T) {
	nodes := peerNodes(t, "testdata/peer/nodes.txt")
	for i := range nodes {
		nodes[i].State, nodes[i].StateFlags = api.NodeIdle, nil
		if nodes[i].Name == "cpu008" {
			nodes[i].StateFlags = []string{api.FlagDrain}
			nodes[i].Reason, nodes[i].ReasonUser, nodes[i].ReasonTime = "s14b test drain", "root", 1795990000
		}
	}
	cases := map[string]struct {
		args   []string
		stdout string
	}{
		"partition in the format": {args: []string{"-R", "-t", "drain", "-o", "%P|%E|%N|%D"},
			stdout: "PARTITION|REASON|NODELIST|NODES\nurgent|s14b test drain|cpu008|1\nnormal*|none||0\nbatch|none||0\n"},
		"summary of two partitions": {args: []string{"-R", "-t", "drain", "-p", "batch,normal", "-s"},
			stdout: "PARTITION AVAIL  TIMELIMIT   NODES(A/I/O/T) NODELIST\n" +
				"normal*      up 2-00:00:00          0/0/1/1 cpu008\n" +
				"batch        up 7-00:00:00          0/0/0/0 \n"},
		"one line per node and partition": {args: []string{"-R", "-t", "drain", "-N", "-o", "%P|%N|%E"},
			stdout: "PARTITION|NODELIST|REASON\nurgent|cpu008|s14b test drain\n" +
				"normal*|cpu008|s14b test drain\nbatch|cpu008|s14b test drain\n"},
		"empty lines without -R": {args: []string{"-t", "down", "-o", "%P|%E|%u|%U|%H|%t"},
			stdout: "PARTITION|REASON|USER|USER|TIMESTAMP|STATE\nurgent|none|root|root(0)|Unknown|n/a\n" +
				"normal*|none|root|root(0)|Unknown|n/a\nbatch|none|root|root(0)|Unknown|n/a\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{now: 1795990100, nodes: nodes, partitions: peerPartitions(t)}
			te := newTestEnv(f, 1795990100)
			code := Sinfo(context.Background(), te.Env, tc.args)
			if diff := cmp.Diff(tc.stdout, te.stdout.String()); diff != "" || code != 0 {
				t.Errorf("exit %d, stderr %q; stdout (-want +got):\n%s", code, te.stderr, diff)
			}
		})
	}
}

// TestSinfoCountUnits: CPU counts and job sizes print as Slurm's
// convert_num_unit prints them (exact multiples of 1024 and halves take
// a unit letter), and as they are with --noconvert.
func TestSinfoCountUnits(t *testing.T) {
	cases := map[string]struct {
		n         int64
		converted string
	}{
		"small":              {64, "64"},
		"not a half":         {1000, "1000"},
		"exactly 1K":         {1024, "1K"},
		"a half":             {1536, "1.50K"},
		"not exact to half":  {1280, "1280"},
		"two units":          {3 << 20, "3M"},
		"a half of the next": {1536 << 10, "1.50M"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := [2]string{countUnits(tc.n, false), countUnits(tc.n, true)}
			want := [2]string{tc.converted, strconv.FormatInt(tc.n, 10)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	part := api.Partition{Name: "big", Default: true, State: "UP", Nodes: "n1", MaxNodes: 1024, MaxTime: 3600}
	node := api.Node{Name: "n1", State: api.NodeIdle, CPUs: 1536, Partitions: []string{"big"}}
	for args, want := range map[string]string{
		"-h -o %c|%s":             "1.50K|1-1K\n",
		"-h -o %c|%s --noconvert": "1536|1-1024\n",
		"-h -O cpus:8,size:12":    "1.50K   1-1K        \n",
	} {
		te := newTestEnv(&fakeController{now: 1795990100, nodes: []api.Node{node}, partitions: []api.Partition{part}}, 1795990100)
		code := Sinfo(context.Background(), te.Env, strings.Fields(args))
		if diff := cmp.Diff(want, te.stdout.String()); diff != "" || code != 0 {
			t.Errorf("sinfo %s: exit %d, stderr %q (-want +got):\n%s", args, code, te.stderr, diff)
		}
	}
}
