//go:build integration

package test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/test/clustertest"
)

// memLimitsExtra is the peer's experiment (Slurm 22.05) on Loam's nodes.
const memLimitsExtra = `PartitionName=normal Nodes=ALL Default=YES State=UP
PartitionName=emnode Nodes=n01 DefMemPerNode=1000 MaxMemPerNode=4000 State=UP
PartitionName=emcpu Nodes=n01 MaxMemPerCPU=2000 State=UP`

// TestMemLimitsMain: the peer's answers to the same jobs. A job without
// --mem gets the partition's DefMemPerNode; --mem over MaxMemPerNode
// waits as MaxMemPerLimit; --mem-per-cpu over MaxMemPerCPU doubles -c and
// halves the memory per CPU; scontrol show partition prints the limits.
func TestMemLimitsMain(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, CPUs: 8, MemMB: 16000, Extra: memLimitsExtra}, "")
	over := lc.submitted("-p", "emnode", "--mem=5000")
	t.Cleanup(func() { lc.runTool("scancel", strconv.Itoa(int(over))) })
	lc.waitJob(over, "waiting as MaxMemPerLimit", func(j api.Job) bool { return j.StateReason == "MaxMemPerLimit" })

	shows := map[string]struct {
		args []string
		want []string
	}{
		"DefMemPerNode": {[]string{"-p", "emnode", "--hold"}, []string{" MinMemoryNode=1000M "}},
		"MaxMemPerCPU":  {[]string{"-p", "emcpu", "--hold", "--mem-per-cpu=3000"}, []string{" CPUs/Task=2 ", " MinMemoryCPU=1500M "}},
	}
	for name, tc := range shows {
		t.Run(name, func(t *testing.T) {
			id := lc.submitted(tc.args...)
			defer lc.runTool("scancel", strconv.Itoa(int(id)))
			_, out, _ := lc.runTool("scontrol", "show", "job", strconv.Itoa(int(id)))
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("scontrol show job lacks %q:\n%s", w, out)
				}
			}
		})
	}
	for part, want := range map[string]string{
		"emnode": "   DefMemPerNode=1000 MaxMemPerNode=4000\n",
		"emcpu":  "   DefMemPerNode=UNLIMITED MaxMemPerCPU=2000\n",
	} {
		if _, out, _ := lc.runTool("scontrol", "show", "partition", part); !strings.Contains(out, want) {
			t.Errorf("scontrol show partition %s lacks %q:\n%s", part, want, out)
		}
	}
}
