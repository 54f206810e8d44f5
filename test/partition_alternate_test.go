//go:build integration

package test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/test/clustertest"
)

// TestPartitionAlternateLive: slurm.conf's Alternate= and LLN= through the
// real commands and daemons, with the peer's answers. A submission (sbatch
// held, salloc) to the drained partition tq goes to its alternate; once
// scontrol clears Alternate= it is refused; an unknown key prints Slurm's
// four lines; Priority= sets both factors; LLN places a one-CPU job on the
// node with the most idle CPUs.
func TestPartitionAlternateLive(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, CPUs: 8, Extra: "PartitionName=normal Nodes=ALL Default=YES MaxTime=UNLIMITED State=UP\n" +
		"PartitionName=tq Nodes=n01 State=DRAIN Alternate=normal\nPartitionName=tl Nodes=ALL LLN=YES\n"}, "")
	run := func(name string, args ...string) string {
		code, out, errs := lc.runTool(name, args...)
		return fmt.Sprintf("%d %s%s", code, out, errs)
	}
	grepShow := func(part string) string {
		out := run("scontrol", "show", "partition", part, "-o")
		var keep []string
		for _, kv := range strings.Fields(out) {
			if k, _, _ := strings.Cut(kv, "="); k == "Alternate" || k == "LLN" || strings.HasPrefix(k, "Priority") {
				keep = append(keep, kv)
			}
		}
		return strings.Join(keep, " ")
	}
	var got []string
	got = append(got, grepShow("tq"), grepShow("tl"))
	id := lc.sbatchID("-H", "-p", "tq,tl", "--wrap", "true")
	got = append(got, run("squeue", "-h", "-j", id, "-o", "%P"))
	_, out, _ := lc.runTool("salloc", "-p", "tq", "sh", "-c", "echo $SLURM_JOB_PARTITION")
	got = append(got, out)
	got = append(got, run("scontrol", "update", "PartitionName=tq", "Bogus=1"))
	got = append(got, run("scontrol", "update", "PartitionName=tq", "Alternate=", "Priority=5"))
	got = append(got, grepShow("tq"))
	got = append(got, run("sbatch", "-p", "tq", "--wrap", "true"))
	got = append(got, run("scancel", id))

	busy := lc.sbatchID("-p", "tl", "-n", "4", "--wrap", "sleep 60")
	one := lc.sbatchID("-p", "tl", "-n", "1", "--wrap", "sleep 60")
	lc.eventually("both LLN jobs to start", func() error {
		out := run("squeue", "-h", "-j", busy+","+one, "-o", "%i %N", "--sort", "i")
		if strings.Count(out, " n0") != 2 {
			return fmt.Errorf("squeue: %q", out)
		}
		got = append(got, strings.ReplaceAll(strings.ReplaceAll(out, busy, "busy"), one, "one"))
		return nil
	})
	run("scancel", busy, one)

	want := []string{"Alternate=normal LLN=NO PriorityJobFactor=1 PriorityTier=1", "LLN=YES PriorityJobFactor=1 PriorityTier=1",
		"0 normal,tl\n", "normal\n",
		"1 scontrol: error: Update of this parameter is not supported: Bogus=1\n\nscontrol: error: Request aborted\nslurm_update error: No error\n",
		"0 ", "LLN=NO PriorityJobFactor=5 PriorityTier=5",
		"1 sbatch: error: Batch job submission failed: Required partition not available (inactive or drain)\n", "0 ",
		"0 busy n01\none n02\n"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
