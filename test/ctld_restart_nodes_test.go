//go:build integration

package test

import (
	"fmt"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
	"github.com/loamhpc/loam/test/fakenode"
)

// TestCtldRestartRecallsNodes: after a restart loam-ctld asks the node
// daemons to register at once, as slurmctld does at its start, so a job
// submitted then starts in seconds, not at the nodes' next heartbeat. The
// node here heartbeats at the interval the controller gives (30 s with
// SlurmdTimeout=300), as loam-noded does; the test waits 15 s at most.
func TestCtldRestartRecallsNodes(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 1, GPUs: 4})
	d := c.StartCtld(t)
	name := clustertest.NodeName(0)
	n, err := fakenode.Start(fakenode.Options{Name: name, Key: c.Key, CtldAddr: d.Addr(),
		Addr: fmt.Sprintf("127.0.0.1:%d", c.NodePorts[name])})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Stop)
	d.Stop()
	d.Restart()
	cl := d.Client()
	id := clustertest.Submit(t, cl, clustertest.Job())
	clustertest.Eventually(t, 15*time.Second, "the job submitted after the restart to run", func() error {
		j, err := clustertest.JobState(cl, id)
		if err != nil {
			return err
		}
		if j.JobState != job.Running {
			return fmt.Errorf("state %s reason %s", j.JobState, j.StateReason)
		}
		return nil
	})
	if got := len(n.Reconfigures()); got != 1 {
		t.Errorf("%d registration requests at the restart, want 1", got)
	}
}
