//go:build integration

package test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// jsonDoc is what scripts read from squeue --json and sinfo --json.
type jsonDoc struct {
	Jobs []struct {
		JobID     uint32 `json:"job_id"`
		JobState  string `json:"job_state"`
		Nodes     string `json:"nodes"`
		Partition string `json:"partition"`
		UserName  string `json:"user_name"`
	} `json:"jobs"`
	Nodes []struct {
		Name       string   `json:"name"`
		State      string   `json:"state"`
		StateFlags []string `json:"state_flags"`
		Partitions []string `json:"partitions"`
	} `json:"nodes"`
}

// TestJSONLiveRecords: on a live cluster with a running job and one
// waiting for both nodes, squeue --json and sinfo --json parse as JSON
// and carry the fields scripts read (job_id, job_state, nodes,
// partition, user_name; a node's name, state, partitions), the idle
// node kept for the waiting job is state "idle" with the PLANNED flag,
// and --yaml starts as Slurm's does.
func TestJSONLiveRecords(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 2, GPUs: 4})
	d := c.StartCtld(t)
	c.StartNode(t, d, 0)
	c.StartNode(t, d, 1)
	cl := d.Client()
	run := clustertest.Submit(t, cl, gpus4("train"))
	clustertest.Eventually(t, 20*time.Second, "the training job to run", func() error {
		if j, err := clustertest.JobState(cl, run); err != nil || j.JobState != job.Running {
			return fmt.Errorf("job %d: %s %v", run, j.JobState, err)
		}
		return nil
	})
	wide := gpus4("wide")
	wide.MinNodes, wide.NodesSet = 2, true
	wait := clustertest.Submit(t, cl, wide)
	dir := t.TempDir()
	var doc jsonDoc
	clustertest.Eventually(t, 20*time.Second, "the idle node planned for the waiting job", func() error {
		doc = jsonDoc{}
		if err := json.Unmarshal([]byte(mustTool(t, c, dir, "sinfo", "--json")), &doc); err != nil {
			return err
		}
		for _, n := range doc.Nodes {
			if n.State == "idle" && slices.Contains(n.StateFlags, "PLANNED") {
				return nil
			}
		}
		return fmt.Errorf("nodes %+v", doc.Nodes)
	})
	if len(doc.Nodes) != 2 || doc.Nodes[0].Name != "n01" || !slices.Equal(doc.Nodes[0].Partitions, []string{"normal"}) {
		t.Errorf("sinfo --json nodes %+v", doc.Nodes)
	}
	if got := mustTool(t, c, dir, "sinfo", "-h", "-N", "-t", "planned", "-o", "%N %T %t"); !strings.HasSuffix(got, " planned plnd\n") {
		t.Errorf("sinfo -t planned: %q", got)
	}

	doc = jsonDoc{}
	if err := json.Unmarshal([]byte(mustTool(t, c, dir, "squeue", "--json")), &doc); err != nil {
		t.Fatalf("squeue --json: %v", err)
	}
	got := map[uint32]string{}
	for _, j := range doc.Jobs {
		got[j.JobID] = strings.Join([]string{j.JobState, j.Nodes, j.Partition, fmt.Sprint(j.UserName != "")}, " ")
	}
	want := map[uint32]string{run: "RUNNING n01 normal true", wait: "PENDING  normal true"}
	for id, w := range want {
		if got[id] != w && !(id == run && got[id] == "RUNNING n02 normal true") {
			t.Errorf("squeue --json job %d: %q, want %q", id, got[id], w)
		}
	}
	for _, tool := range []string{"squeue", "sinfo"} {
		if out := mustTool(t, c, dir, tool, "--yaml"); !strings.HasPrefix(out, "%YAML 1.1\n") {
			t.Errorf("%s --yaml starts %q", tool, out[:min(len(out), 40)])
		}
	}
}
