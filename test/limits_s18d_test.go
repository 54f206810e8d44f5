//go:build integration

package test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// limitsExtra is the peer's experiment (Slurm 22.05) on Loam's nodes.
const limitsExtra = `EnforcePartLimits=ALL
PartitionName=normal Nodes=ALL Default=YES State=UP OverTimeLimit=1
PartitionName=dlim Nodes=n01 MaxTime=10 MaxNodes=1 State=UP
PartitionName=dlim2 Nodes=n01 MaxTime=5 State=UP
PartitionName=droot Nodes=n01 DisableRootJobs=YES State=UP`

// TestLimitsSubmitRefusals: with EnforcePartLimits=ALL sbatch is refused
// with the peer's one line and exit 1, no job id is used up, and a root
// job is refused on a DisableRootJobs partition (the tests run as root).
func TestLimitsSubmitRefusals(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, Extra: limitsExtra}, "")
	const failed = "sbatch: error: Batch job submission failed: "
	tests := map[string]struct {
		args []string
		want string
	}{
		"over MaxTime": {[]string{"-p", "dlim", "--time=20"},
			failed + "Requested time limit is invalid (missing or exceeds some limit)\n"},
		"over MaxNodes": {[]string{"-p", "dlim", "-N2"}, failed + "Node count specification invalid\n"},
		"ALL: one of two partitions' MaxTime": {[]string{"-p", "dlim,dlim2", "--time=7"},
			failed + "Requested time limit is invalid (missing or exceeds some limit)\n"},
		"DisableRootJobs": {[]string{"-p", "droot"}, failed + "Invalid user id\n"},
	}
	first := lc.submitted("-p", "dlim", "--hold")
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, out, errs := lc.runTool("sbatch", append(tc.args, "--wrap=true")...)
			if code != 1 || out != "" || errs != tc.want {
				t.Errorf("sbatch %v: exit %d\nstdout %q\nstderr %q\nwant   %q", tc.args, code, out, errs, tc.want)
			}
		})
	}
	if next := lc.submitted("-p", "dlim", "--hold"); next != first+1 {
		t.Errorf("job ids %d then %d: the refusals used ids up", first, next)
	}
	_, out, _ := lc.runTool("scontrol", "show", "partition", "droot")
	for _, w := range []string{" DisableRootJobs=YES ", "OverTimeLimit=NONE "} {
		if !strings.Contains(out, w) {
			t.Errorf("scontrol show partition droot lacks %q:\n%s", w, out)
		}
	}
}

// submitted runs sbatch --parsable and returns the job id.
func (lc *liveCluster) submitted(args ...string) uint32 {
	lc.t.Helper()
	code, out, errs := lc.runTool("sbatch", append(args, "--parsable", "--wrap=true")...)
	id, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
	if code != 0 || err != nil {
		lc.t.Fatalf("sbatch %v: exit %d %q %q", args, code, out, errs)
	}
	return uint32(id)
}

// TestLimitsOverTime: a job in a partition with OverTimeLimit=1 keeps
// running past its time limit (cut here to 1 s by scontrol update) until
// the minute of overtime ends; scontrol show partition shows the value.
func TestLimitsOverTime(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, Extra: limitsExtra}, "")
	id := lc.submit(lc.script("sleep 300", withLimit(time.Minute), inPartition("normal")))
	t.Cleanup(func() { lc.runTool("scancel", strconv.Itoa(int(id))) })
	j := lc.waitState(id, job.Running)
	one := int64(1)
	if _, err := lc.cl.Update(context.Background(), &api.UpdateRequest{JobIDs: []string{strconv.Itoa(int(id))},
		Update: api.JobUpdate{TimeLimit: &one}}); err != nil {
		t.Fatal(err)
	}
	// Without the overtime the node ends the job at once (TIMEOUT); with
	// it the job still runs well past its second.
	lc.eventually("the job 5 s past its time limit", func() error {
		if time.Now().Unix()-j.StartTime < 6 {
			return fmt.Errorf("started %d", j.StartTime)
		}
		return nil
	})
	if got := lc.job(id); got.JobState != job.Running {
		t.Errorf("job is %s 5 s past its 1 s time limit, want RUNNING in its overtime", got.JobState)
	}
	_, out, _ := lc.runTool("scontrol", "show", "partition", "normal")
	if !strings.Contains(out, "\n   OverTimeLimit=1 PreemptMode=") {
		t.Errorf("scontrol show partition normal:\n%s", out)
	}
}
