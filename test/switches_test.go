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

// switchTopology is two leaf switches of two nodes each under one top.
const switchTopology = "SwitchName=s1 Nodes=n[01-02]\nSwitchName=s2 Nodes=n[03-04]\nSwitchName=top Switches=s[1-2]\n"

// TestSwitches: --switches on a tree topology of four emulated nodes on
// two leaves, with max_switch_wait=3. (1) A -N2 --switches=1 job starts
// on the two nodes of one leaf. (2) With one node of each leaf taken, a
// -N2 --switches=1@1 job (one minute, capped to 3 s) pends with
// Reason=Resources while its wait lasts (ResourcesReserved, Loam's word for
// it, once the scheduler holds the nodes it will start on), then starts
// across both leaves.
// (3) scontrol show job and squeue -O show what the controller stored,
// and scontrol update's wait is capped too.
func TestSwitches(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 4, CPUs: 4, Topology: switchTopology,
		Extra: "TopologyPlugin=topology/tree\nSchedulerParameters=sched_interval=2,bf_interval=1,max_switch_wait=3"})
	d := c.StartCtld(t)
	for i := 0; i < 4; i++ {
		c.StartNode(t, d, i)
	}
	cl := d.Client()
	dir := t.TempDir()
	sbatch := func(args ...string) uint32 { t.Helper(); return sbatchID(t, c, dir, args...) }
	running := func(id uint32) api.Job { t.Helper(); return jobIn(t, cl, id, job.Running) }

	// (1) One leaf.
	one := sbatch("-N2", "--switches=1", "--wrap=true")
	if j := running(one); j.Nodes != "n[01-02]" && j.Nodes != "n[03-04]" {
		t.Errorf("-N2 --switches=1 runs on %s, want the two nodes of one leaf", j.Nodes)
	}
	mustTool(t, c, dir, "scancel", fmt.Sprint(one))

	// (2) One node of each leaf busy: the job waits, then spans both.
	for _, n := range []string{"n01", "n03"} {
		running(sbatch("-w", n, "--exclusive", "--wrap=sleep 1000"))
	}
	wide := sbatch("-N2", "--switches=1@1", "--wrap=true")
	var seen []string // the states polled, for the failure message
	clustertest.Eventually(t, 10*time.Second, "the --switches job pending for Resources", func() error {
		j, err := clustertest.JobState(cl, wide)
		if err == nil {
			seen = append(seen, string(j.JobState)+"/"+string(j.StateReason))
		}
		switch {
		case err != nil:
			return err
		case j.JobState == job.Running:
			t.Fatalf("job %d started on %s before it was seen waiting for its switch; seen %q", wide, j.Nodes, seen)
		case j.JobState != job.Pending || (j.StateReason != job.ReasonResources && j.StateReason != "ResourcesReserved"):
			return fmt.Errorf("job %d is %s (%s)", wide, j.JobState, j.StateReason)
		}
		return nil
	})
	// (3) What the controller stored: one minute capped to 3 s.
	show := mustTool(t, c, dir, "scontrol", "show", "job", fmt.Sprint(wide))
	if !strings.Contains(show, "\n   StdOut="+dir+"/slurm-"+fmt.Sprint(wide)+".out\n   Switches=1@00:00:03\n   Power=") {
		t.Errorf("scontrol show job lacks Switches=1@00:00:03 after StdOut=:\n%s", show)
	}
	q := mustTool(t, c, dir, "squeue", "-h", "-j", fmt.Sprint(wide), "-O", "reqswitch:6,wait4switch:6")
	if q != "1     0:03  \n" {
		t.Errorf("squeue -O reqswitch,wait4switch: %q, want %q", q, "1     0:03  \n")
	}
	j := running(wide)
	if j.Nodes != "n[02,04]" {
		t.Errorf("after its wait the job runs on %s, want n[02,04]", j.Nodes)
	}
	if waited := j.StartTime - j.SubmitTime; waited < 3 {
		t.Errorf("the job started %d s after its submission, before its 3 s wait", waited)
	}
	// scontrol update caps the wait too, and Switches=0 clears the line.
	mustTool(t, c, dir, "scontrol", "update", "jobid="+fmt.Sprint(wide), "wait-for-switch=100")
	if show := mustTool(t, c, dir, "scontrol", "-o", "show", "job", fmt.Sprint(wide)); !strings.Contains(show, " Switches=1@00:00:03 ") {
		t.Errorf("after wait-for-switch=100: %s", show)
	}
	mustTool(t, c, dir, "scontrol", "update", "jobid="+fmt.Sprint(wide), "Switches=0")
	if show := mustTool(t, c, dir, "scontrol", "show", "job", fmt.Sprint(wide)); strings.Contains(show, "Switches=") {
		t.Errorf("after Switches=0:\n%s", show)
	}
}
