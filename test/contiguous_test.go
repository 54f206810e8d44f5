//go:build integration

package test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestContiguous: --contiguous on four emulated nodes, as the peer did on
// its CPU nodes. (1) With n02 busy a -N2 --contiguous job runs on
// n[03-04], and scontrol show job and squeue show Contiguous=1 / 1. (2) A
// -N3 --contiguous job then pends for Resources. (3) -N3 --contiguous -x
// n02 is refused at submit with Slurm's line.
func TestContiguous(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 4, CPUs: 4,
		Extra: "SchedulerParameters=sched_interval=2,bf_interval=1"})
	d := c.StartCtld(t)
	for i := 0; i < 4; i++ {
		c.StartNode(t, d, i)
	}
	cl := d.Client()
	dir := t.TempDir()
	sbatch := func(args ...string) uint32 { t.Helper(); return sbatchID(t, c, dir, args...) }
	state := func(id uint32, want job.State) api.Job { t.Helper(); return jobIn(t, cl, id, want) }

	// (1) Around a busy node.
	state(sbatch("-w", "n02", "--exclusive", "--wrap=sleep 1000"), job.Running)
	two := sbatch("-N2", "--contiguous", "--exclusive", "--wrap=sleep 1000")
	if j := state(two, job.Running); j.Nodes != "n[03-04]" {
		t.Errorf("-N2 --contiguous runs on %s, want n[03-04]", j.Nodes)
	}
	if show := mustTool(t, c, dir, "scontrol", "show", "job", fmt.Sprint(two)); !strings.Contains(show, " Contiguous=1 ") {
		t.Errorf("scontrol show job lacks Contiguous=1:\n%s", show)
	}
	if q := mustTool(t, c, dir, "squeue", "-h", "-j", fmt.Sprint(two), "-o", "%O"); q != "1\n" {
		t.Errorf("squeue %%O: %q, want %q", q, "1\n")
	}

	// (2) No three consecutive nodes free.
	three := sbatch("-N3", "--contiguous", "--wrap=true")
	clustertest.Eventually(t, 10*time.Second, "the -N3 --contiguous job pending for Resources", func() error {
		j, err := clustertest.JobState(cl, three)
		switch {
		case err != nil:
			return err
		case j.JobState == job.Running:
			t.Fatalf("job %d started on %s with no three consecutive nodes free", three, j.Nodes)
		case j.JobState != job.Pending || (j.StateReason != job.ReasonResources && j.StateReason != "ResourcesReserved"):
			return fmt.Errorf("job %d is %s (%s)", three, j.JobState, j.StateReason)
		}
		return nil
	})

	// (3) No run of three outside n02 at all.
	r := runTool(t, c, dir, "", "sbatch", "-N3", "--contiguous", "-x", "n02", "--wrap=true")
	const refused = "sbatch: error: Batch job submission failed: Requested node configuration is not available\n"
	if r.code != 1 || r.stderr != refused {
		t.Errorf("sbatch -N3 --contiguous -x n02: exit %d, stderr %q; want 1, %q", r.code, r.stderr, refused)
	}
}
