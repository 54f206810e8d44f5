package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
)

// TestSinfoGresUsedAsTheNodeRecord: sinfo's GresUsed is the node
// record's string as the controller sends it: the peer's untyped nodes
// ("gpu:2" on gpu001 holding 2 GPUs and 1 CPU of a finished pair, "gpu:0"
// idle, "gpu:0" on a CPU node: the peer's text), and a typed GPU keeps the
// held indices ("gpu:h100:2(IDX:0-1)"), as Slurm prints them in both
// sinfo and scontrol -d.
func TestSinfoGresUsedAsTheNodeRecord(t *testing.T) {
	nodes := peerJSONNodes()
	cpu, idle, used := nodes[0], nodes[1], nodes[2]
	cpu.Name, idle.Name, used.Name = "cpu003", "gpu020", "gpu001"
	used.GRESUsed, idle.GRESUsed, cpu.GRESUsed = "gpu:2", "gpu:0", "gpu:0"
	typed := used
	typed.Name, typed.GRES, typed.GRESUsed = "gpu030", "gpu:h100:8", "gpu:h100:2(IDX:0-1)"
	args := []string{"-N", "-p", "normal", "-O", "NodeList,CPUsState,Gres:30,GresUsed:40,AllocMem,Memory,StateLong"}
	for name, tc := range map[string]struct {
		nodes []api.Node
		want  string
	}{
		"untyped (peer)": {[]api.Node{cpu, used, idle}, "" +
			"NODELIST            CPUS(A/I/O/T)       GRES                          GRES_USED                               ALLOCMEM            MEMORY              STATE               \n" +
			"cpu003              0/32/0/32           (null)                        gpu:0                                   0                   128000              idle                \n" +
			"gpu001              1/63/0/64           gpu:8                         gpu:2                                   1024                512000              mixed               \n" +
			"gpu020              0/64/0/64           gpu:8                         gpu:0                                   0                   512000              idle                \n"},
		"typed": {[]api.Node{typed}, "" +
			"NODELIST            CPUS(A/I/O/T)       GRES                          GRES_USED                               ALLOCMEM            MEMORY              STATE               \n" +
			"gpu030              1/63/0/64           gpu:h100:8                    gpu:h100:2(IDX:0-1)                     1024                512000              mixed               \n"},
	} {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(&fakeController{nodes: tc.nodes, partitions: peerPartitions(t)}, 1796008500)
			if code := Sinfo(context.Background(), te.Env, args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr.String())
			}
			got := te.stdout.String()
			if diff := cmp.Diff(strings.Split(tc.want, "\n"), strings.Split(got, "\n")); diff != "" {
				t.Errorf("sinfo (-want +got):\n%s", diff)
			}
		})
	}
}
