//go:build integration

package test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// partKeysExtra is the peer's experiment (Slurm 22.05) on Loam's nodes:
// igpu gives GPU jobs 4 CPUs per GPU, imax lets its jobs hold at most 4
// of a node's 8 CPUs.
const partKeysExtra = `PartitionName=normal Nodes=ALL Default=YES State=UP
PartitionName=igpu Nodes=n01 DefCPUPerGPU=4 State=UP
PartitionName=imax Nodes=n01 MaxCPUsPerNode=4 State=UP`

// TestPartKeysMain: as on the peer, a --gpus=2 job in igpu runs on 8
// CPUs with CpusPerTres=gpu:4 (with -c3 on 3); in imax a job asking more
// than the bound on its node waits with PartitionConfig, and of two jobs
// that fit alone the second waits for Resources; scontrol show partition
// prints both keys.
func TestPartKeysMain(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, CPUs: 8, MemMB: 16000, GPUs: 2, Extra: partKeysExtra}, "")
	var ids []string
	submit := func(args ...string) uint32 {
		id := lc.submitted(args...)
		ids = append(ids, strconv.Itoa(int(id)))
		return id
	}
	t.Cleanup(func() { lc.runTool("scancel", ids...) })

	gpu := submit("-p", "igpu", "--gpus=2", "--hold")
	_, out, _ := lc.runTool("scontrol", "show", "job", strconv.Itoa(int(gpu)))
	for _, w := range []string{" CpusPerTres=gpu:4", " CPUs/Task=1 "} {
		if !strings.Contains(out, w) {
			t.Errorf("scontrol show job lacks %q:\n%s", w, out)
		}
	}
	withC := submit("-p", "igpu", "--gpus=2", "-c3", "--hold")
	if _, out, _ := lc.runTool("scontrol", "show", "job", strconv.Itoa(int(withC))); strings.Contains(out, "CpusPerTres") {
		t.Errorf("-c3 job has a CpusPerTres:\n%s", out)
	}
	lc.runTool("scontrol", "release", strconv.Itoa(int(gpu)))
	j := lc.waitJob(gpu, "running on 8 CPUs", func(j api.Job) bool { return j.JobState == job.Running })
	if j.CPUs != 8 {
		t.Errorf("NumCPUs = %d, want 8 (the peer's)", j.CPUs)
	}
	lc.runTool("scancel", strconv.Itoa(int(gpu)), strconv.Itoa(int(withC)))

	over := submit("-p", "imax", "-w", "n01", "-n", "6")
	lc.waitJob(over, "waiting as PartitionConfig", func(j api.Job) bool { return j.StateReason == "PartitionConfig" })
	first := lc.submit(lc.script("sleep 300", inPartition("imax"), func(r *job.Request) { r.NTasks = 3 }))
	ids = append(ids, strconv.Itoa(int(first)))
	lc.waitState(first, job.Running)
	second := submit("-p", "imax", "-n", "3")
	// The peer says Resources; Loam's ResourcesReserved adds that the job
	// holds a reservation (squeue(1)).
	lc.waitJob(second, "waiting for Resources", func(j api.Job) bool {
		return j.StateReason == "Resources" || j.StateReason == "ResourcesReserved"
	})

	for part, want := range map[string]string{
		"igpu": "   JobDefaults=DefCpuPerGPU=4\n",
		"imax": " LLN=NO MaxCPUsPerNode=4\n",
	} {
		if _, out, _ := lc.runTool("scontrol", "show", "partition", part); !strings.Contains(out, want) {
			t.Errorf("scontrol show partition %s lacks %q:\n%s", part, want, out)
		}
	}
}
