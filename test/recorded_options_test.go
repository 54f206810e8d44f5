//go:build integration

package test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestRecordedOptions: sbatch's --bb, --network, --cluster-constraint,
// --delay-boot, --power, --gres-flags, --gpus-per-socket and --reboot
// reach the controller and come back as the peer's scontrol show job and
// squeue print them (held jobs, lines as on the peer), and a --reboot
// job takes its whole node.
func TestRecordedOptions(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 1, CPUs: 4})
	d := c.StartCtld(t)
	c.StartNode(t, d, 0)
	cl := d.Client()
	dir := t.TempDir()

	// (1) A held job with all of them.
	held := sbatchID(t, c, dir, "--hold", "--gres-flags=enforce-binding", "--bb=capacity=1G", "--network=foo",
		"--delay-boot=5", "--power=level", "--cluster-constraint=x", "--gpus-per-socket=2", "--sockets-per-node=2",
		"--reboot", "--wrap=true")
	show := mustTool(t, c, dir, "scontrol", "show", "job", fmt.Sprint(held))
	for _, line := range []string{
		"   Requeue=1 Restarts=0 BatchFlag=1 Reboot=1 ExitCode=0:0\n",
		"   Features=(null) DelayBoot=00:05:00\n   ClusterFeatures=x\n   OverSubscribe=NO Contiguous=0 Licenses=(null) Network=foo\n",
		"   BurstBuffer=capacity=1G\n   Power=LEVEL\n   GresEnforceBind=Yes\n   TresPerSocket=gres:gpu:2\n",
	} {
		if !strings.Contains(show, line) {
			t.Errorf("scontrol show job lacks %q:\n%s", line, show)
		}
	}
	q := mustTool(t, c, dir, "squeue", "-h", "-j", fmt.Sprint(held), "-O",
		"burstbuffer:12,clusterfeature:4,delayboot:6,network:4,reboot:2,tres-per-socket:11")
	if want := "capacity=1G x   5:00  foo 1 gres:gpu:2 \n"; q != want {
		t.Errorf("squeue -O: %q, want %q", q, want)
	}

	// (2) --reboot: one task, the whole node.
	rb := sbatchID(t, c, dir, "--reboot", "-n1", "--wrap=sleep 1000")
	if j := jobIn(t, cl, rb, job.Running); j.CPUs != 4 {
		t.Errorf("--reboot -n1 holds %d CPUs, want the node's 4", j.CPUs)
	}
	mustTool(t, c, dir, "scancel", fmt.Sprint(rb), fmt.Sprint(held))
}
