//go:build integration

package test

import (
	"fmt"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestCtldJobLife: a job submitted to loam-ctld is launched on a node
// daemon, and ends COMPLETED when the node reports exit 0.
func TestCtldJobLife(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 2, GPUs: 4})
	d := c.StartCtld(t)
	nodes := []*clustertest.FakeNode{c.StartNode(t, d, 0), c.StartNode(t, d, 1)}
	cl := d.Client()
	id := clustertest.Submit(t, cl, clustertest.Job())
	var on *clustertest.FakeNode
	clustertest.Eventually(t, 10*time.Second, "the job to run", func() error {
		j, err := clustertest.JobState(cl, id)
		if err != nil {
			return err
		}
		if j.JobState != job.Running {
			return fmt.Errorf("state %s reason %s", j.JobState, j.StateReason)
		}
		for _, n := range nodes {
			if n.Name == j.BatchHost {
				on = n
			}
		}
		return nil
	})
	l := on.Launch(t, id, 10*time.Second)
	if !l.Batch || l.Script == "" || l.WorkDir != "/tmp" {
		t.Errorf("launch %+v", l)
	}
	if err := on.End(id, job.ExitCode{}); err != nil {
		t.Fatal(err)
	}
	clustertest.Eventually(t, 10*time.Second, "the job to complete", func() error {
		j, err := clustertest.JobState(cl, id)
		if err != nil {
			return err
		}
		if j.JobState != job.Completed {
			return fmt.Errorf("state %s", j.JobState)
		}
		return nil
	})
}
