package command

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
)

// plannedNodes is the peer's cluster as testdata/peer/planned captured
// it: gpu[029-032] idle and planned for a pending job, the rest
// allocated to a running one.
func plannedNodes(t *testing.T) []api.Node {
	nodes := peerNodes(t, "testdata/peer/nodes.txt")
	for i := range nodes {
		n := &nodes[i]
		n.Reason, n.ReasonUser, n.ReasonTime = "", "", 0
		switch n.Name {
		case "gpu029", "gpu030", "gpu031", "gpu032":
			n.State, n.StateFlags, n.AllocCPUs = api.NodeIdle, []string{api.FlagPlanned}, 0
		default:
			n.State, n.StateFlags, n.AllocCPUs = api.NodeAllocated, nil, n.CPUs
		}
	}
	return nodes
}

// TestSinfoPlanned: nodes the scheduler keeps for a pending job print
// as the peer prints its backfill's PLANNED nodes: "planned"/"plnd",
// selected by -t planned (and plnd) and, being idle, by -t idle, and
// counted idle by -s.
func TestSinfoPlanned(t *testing.T) {
	cases := map[string]string{
		"":              "sinfo_default.txt",
		"-N -p normal":  "sinfo_N_p_normal.txt",
		"-t planned":    "sinfo_t_planned.txt",
		"-t plnd":       "sinfo_t_planned.txt",
		"-t idle":       "sinfo_t_idle.txt",
		"-t alloc":      "sinfo_t_alloc.txt",
		"-N -t planned": "sinfo_N_t_planned.txt",
		"-s":            "sinfo_s.txt",
		"-o %T_%t_%N":   "sinfo_o_T_t_N.txt",
	}
	nodes := plannedNodes(t)
	for args, file := range cases {
		t.Run(args, func(t *testing.T) {
			raw, err := os.ReadFile("testdata/peer/planned/" + file)
			if err != nil {
				t.Fatal(err)
			}
			want := string(raw)
			if strings.Contains(args, "%T_%t_%N") {
				want = strings.ReplaceAll(want, " ", "_")
			}
			f := &fakeController{now: 1795990100, nodes: nodes, partitions: peerPartitions(t)}
			te := newTestEnv(f, 1795990100)
			code := Sinfo(context.Background(), te.Env, strings.Fields(args))
			if diff := cmp.Diff(want, te.stdout.String()); diff != "" || code != 0 {
				t.Errorf("sinfo %s: exit %d, stderr %q; stdout (-want +got):\n%s", args, code, te.stderr, diff)
			}
		})
	}
}

// TestSinfoPlannedJSON: sinfo --json gives a planned node state "idle"
// and state_flags ["PLANNED"], as the peer's does.
func TestSinfoPlannedJSON(t *testing.T) {
	f := &fakeController{now: 1795990100, nodes: plannedNodes(t), partitions: peerPartitions(t)}
	te := newTestEnv(f, 1795990100)
	if code := Sinfo(context.Background(), te.Env, []string{"--json", "-n", "gpu030"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	out := te.stdout.String()
	for _, want := range []string{`"state": "idle"`, "\"state_flags\": [\n        \"PLANNED\"\n      ]"} {
		if !strings.Contains(out, want) {
			t.Errorf("sinfo --json lacks %q:\n%s", want, out)
		}
	}
}
