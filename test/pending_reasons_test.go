//go:build integration

package test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/loamhpc/loam/test/clustertest"
)

// TestPendingReasonsOrder: squeue's REASON and scontrol's Reason= for
// jobs that nodes not up keep waiting, as the Slurm 22.05 peer shows them:
// a begin time in the future comes first; one node up of the two a job
// needs is Slurm's "Nodes required..." description of Reason=Resources;
// with every node of the partition drained, the job names them.
func TestPendingReasonsOrder(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, CPUs: 4}, "")
	run := func(name string, args ...string) string {
		t.Helper()
		code, out, errs := lc.runTool(name, args...)
		if code != 0 {
			t.Fatalf("%s %v: exit %d: %s%s", name, args, code, out, errs)
		}
		return strings.TrimSpace(out)
	}
	n1, n2 := clustertest.NodeName(0), clustertest.NodeName(1)
	run("scontrol", "update", "NodeName="+n2, "State=DRAIN", "Reason=reasons")
	short := run("sbatch", "--parsable", "-N2", "--wrap=true")
	later := run("sbatch", "--parsable", "-N2", "--begin=now+1hour", "--wrap=true")
	held := run("sbatch", "--parsable", "-N2", "-H", "--begin=now+1hour", "--wrap=true")
	const nodesText = "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions"
	want := strings.Join([]string{short + " " + nodesText, later + " BeginTime", held + " JobHeldUser"}, "\n")
	squeue := func() string {
		return run("squeue", "-h", "-j", short+","+later+","+held, "-o", "%i %r", "--sort=i")
	}
	lc.eventually("reasons with one node drained", func() error {
		if got := squeue(); got != want {
			return fmt.Errorf("squeue:\n%s\nwant:\n%s", got, want)
		}
		return nil
	})
	if show := run("scontrol", "show", "job", short); !strings.Contains(show, " Reason="+strings.ReplaceAll(nodesText, " ", "_")+" ") {
		t.Errorf("scontrol show job %s:\n%s\nwant Reason=%s", short, show, nodesText)
	}

	run("scontrol", "update", "NodeName="+n1, "State=DRAIN", "Reason=reasons")
	want = strings.Join([]string{short + " ReqNodeNotAvail, UnavailableNodes:n[01-02]", later + " BeginTime", held + " JobHeldUser"}, "\n")
	lc.eventually("reasons with every node drained", func() error {
		if got := squeue(); got != want {
			return fmt.Errorf("squeue:\n%s\nwant:\n%s", got, want)
		}
		return nil
	})
	run("scancel", short, later, held)
}
