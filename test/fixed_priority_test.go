//go:build integration

package test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestFixedPriorityStartsFirst: two jobs wait behind a busy node; an
// operator's scontrol update Priority= gives the younger one a fixed
// priority above the other's, squeue %Q shows it (as on the Slurm 22.05
// peer), a restart of loam-ctld keeps it, and the younger job starts first
// when the node frees. sbatch --priority=N from an operator pins N at
// submission.
func TestFixedPriorityStartsFirst(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 1, CPUs: 4, GPUs: 0})
	d := c.StartCtld(t)
	n := c.StartNode(t, d, 0)
	dir := t.TempDir()
	sbatch := func(args ...string) uint32 {
		t.Helper()
		return sbatchID(t, c, dir, append(append([]string{"--exclusive"}, args...), "--wrap", "sleep 100")...)
	}
	busy := sbatch()
	n.Launch(t, busy, 10*time.Second)
	older, younger := sbatch(), sbatch()
	pinned := sbatch("--priority=777")
	mustTool(t, c, dir, "scontrol", "update", fmt.Sprintf("jobid=%d", younger), "priority=100000")
	prio := func(id uint32) string {
		return strings.TrimSpace(mustTool(t, c, dir, "squeue", "-h", "-j", fmt.Sprint(id), "-o", "%Q"))
	}
	if got := prio(younger) + " " + prio(pinned); got != "100000 777" {
		t.Fatalf("squeue %%Q of the pinned jobs: %q, want \"100000 777\"", got)
	}
	d.Stop()
	d.Restart()
	if got := prio(younger) + " " + prio(pinned); got != "100000 777" {
		t.Fatalf("squeue %%Q after a restart: %q, want \"100000 777\"", got)
	}
	if err := n.End(busy, job.ExitCode{}); err != nil {
		t.Fatal(err)
	}
	n.Launch(t, younger, 15*time.Second)
	cl := d.Client()
	for _, id := range []uint32{older, pinned} {
		j, err := clustertest.JobState(cl, id)
		if err != nil {
			t.Fatal(err)
		}
		if j.JobState != job.Pending {
			t.Errorf("job %d is %s, want PENDING behind the pinned job", id, j.JobState)
		}
	}
}
