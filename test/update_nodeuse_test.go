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

// TestUpdateNodeUse: scontrol update's OverSubscribe= and Reboot= on a
// pending job show as the peer showed them and steer the scheduler. On
// one node with a one-CPU job running: (1) a held job updated to
// Shared=0 and released waits for the node; OverSubscribe=yes then lets
// it start beside the first. (2) Reboot=1 shows Reboot=1 beside
// OverSubscribe=OK, and the job waits for a whole node.
func TestUpdateNodeUse(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 1, CPUs: 4,
		Extra: "SchedulerParameters=sched_interval=2,bf_interval=1"})
	d := c.StartCtld(t)
	c.StartNode(t, d, 0)
	cl := d.Client()
	dir := t.TempDir()
	sbatch := func(args ...string) uint32 { t.Helper(); return sbatchID(t, c, dir, args...) }
	scontrol := func(args ...string) string { t.Helper(); return mustTool(t, c, dir, "scontrol", args...) }
	waiting := func(id uint32) {
		t.Helper()
		clustertest.Eventually(t, 10*time.Second, fmt.Sprintf("job %d pending for Resources", id), func() error {
			j, err := clustertest.JobState(cl, id)
			switch {
			case err != nil:
				return err
			case j.JobState == job.Running:
				t.Fatalf("job %d started beside a running job", id)
			case j.JobState != job.Pending || (j.StateReason != job.ReasonResources && j.StateReason != "ResourcesReserved"):
				return fmt.Errorf("job %d is %s (%s)", id, j.JobState, j.StateReason)
			}
			return nil
		})
	}
	jobIn(t, cl, sbatch("--wrap=sleep 1000"), job.Running)

	// (1) Sharing.
	b := sbatch("--hold", "--wrap=sleep 1000")
	scontrol("update", fmt.Sprintf("jobid=%d", b), "Shared=0")
	if show := scontrol("show", "job", fmt.Sprint(b)); !strings.Contains(show, " OverSubscribe=NO ") {
		t.Errorf("Shared=0: show job lacks OverSubscribe=NO:\n%s", show)
	}
	scontrol("release", fmt.Sprint(b))
	waiting(b)
	scontrol("update", fmt.Sprintf("jobid=%d", b), "OverSubscribe=yes")
	jobIn(t, cl, b, job.Running)
	if show := scontrol("show", "job", fmt.Sprint(b)); !strings.Contains(show, " OverSubscribe=YES ") {
		t.Errorf("OverSubscribe=yes: show job lacks OverSubscribe=YES:\n%s", show)
	}

	// (2) Reboot.
	r := sbatch("--hold", "--wrap=true")
	scontrol("update", fmt.Sprintf("jobid=%d", r), "Reboot=yes")
	show := scontrol("show", "job", fmt.Sprint(r))
	if !strings.Contains(show, " Reboot=1 ") || !strings.Contains(show, " OverSubscribe=OK ") {
		t.Errorf("Reboot=yes: show job lacks Reboot=1 and OverSubscribe=OK:\n%s", show)
	}
	scontrol("release", fmt.Sprint(r))
	waiting(r)
}
