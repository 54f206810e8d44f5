package command

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestS16PendingNumNodes: scontrol's NumNodes for a pending job is its
// node range, the minimum never above the maximum: the peer shows
// sbatch --hold -n6 --ntasks-per-node=2 -N1-2 (node_count 3) as
// NumNodes=2-2 and -n4 --ntasks-per-node=2 -N1-3 as NumNodes=2-3.
func TestS16PendingNumNodes(t *testing.T) {
	cases := map[string]struct {
		nodes, max int
		want       string
	}{
		"-n6 --ntasks-per-node=2 -N1-2": {3, 2, "NumNodes=2-2 NumCPUs=6"},
		"-n4 --ntasks-per-node=2 -N1-3": {2, 3, "NumNodes=2-3 NumCPUs=6"},
		"-n4 --ntasks-per-node=2":       {2, 0, "NumNodes=2 NumCPUs=6"},
	}
	got, want := map[string]string{}, map[string]string{}
	for name, tc := range cases {
		j := api.Job{JobState: job.Pending, NodeCount: tc.nodes, MaxNodes: tc.max, CPUs: 6, Tasks: 6}
		line := string((&jobFormatter{}).shapeLines(nil, &j, "\n"))
		got[name], want[name] = line[:strings.Index(line, " NumTasks")], tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NumNodes (-want +got):\n%s", diff)
	}
}

// TestS16AllocNodeShown: scontrol's AllocNode:Sid is the name the
// controller resolved (the peer: AllocNode:Sid=localhost:19143 for sbatch
// run on host vm); a record without one shows the submitting host.
func TestS16AllocNodeShown(t *testing.T) {
	got := map[string]string{}
	for name, alloc := range map[string]string{"resolved": "localhost", "older record": ""} {
		j := api.Job{JobState: job.Pending, Partition: "normal", AllocNode: alloc, SubmitHost: "vm", AllocSID: 19143}
		out := string((&jobFormatter{}).appendJob(nil, &j))
		i := strings.Index(out, "AllocNode:Sid=")
		if i < 0 {
			t.Fatalf("no AllocNode:Sid in:\n%s", out)
		}
		got[name] = strings.Fields(out[i:])[0]
	}
	want := map[string]string{"resolved": "AllocNode:Sid=localhost:19143", "older record": "AllocNode:Sid=vm:19143"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("AllocNode:Sid (-want +got):\n%s", diff)
	}
}

// TestS16NtasksPerTRES: scontrol shows --ntasks-per-gpu as the peer does,
// NtasksPerTRES=N after the TresPer* lines (sbatch -n4 --gpus=2
// --ntasks-per-gpu=2: TresPerJob=gres:gpu:2 then NtasksPerTRES=2).
func TestS16NtasksPerTRES(t *testing.T) {
	j := api.Job{JobState: job.Pending, TRESPerJob: "gres:gpu:2", NTasksPerTRES: 2}
	lines := strings.Split(string((&jobFormatter{}).fileLines(nil, &j, "\n")), "\n")
	want := []string{"Power=", "TresPerJob=gres:gpu:2", "NtasksPerTRES=2"}
	if diff := cmp.Diff(want, lines[len(lines)-3:]); diff != "" {
		t.Errorf("scontrol show job (-want +got):\n%s", diff)
	}
}
