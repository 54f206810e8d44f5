package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSqueuePerTRESFieldsS16G: squeue -O cpus-per-tres and mem-per-tres
// show --cpus-per-gpu and --mem-per-gpu as the peer printed them for
// jobs 21792 (--gpus=1 --mem-per-gpu=1000), 21791 (--gpus=2
// --cpus-per-gpu=4) and 21786 (neither).
func TestSqueuePerTRESFieldsS16G(t *testing.T) {
	pending := func(id uint32, name, perJob string) api.Job {
		return api.Job{JobID: id, Name: name, UserName: "root", Partition: "normal", BatchFlag: true,
			JobState: job.Pending, StateReason: job.ReasonJobHeldUser, Hold: true, NodeCount: 1, CPUs: 1,
			TimeLimit: 3600, SubmitTime: 1795990000, TRESPerJob: perJob}
	}
	mpg := pending(21792, "mpg", "gres:gpu:1")
	mpg.MemoryPerGPU = 1000
	cpg := pending(21791, "cpg", "gres:gpu:2")
	cpg.CPUsPerGPU = 4
	jobs := []api.Job{mpg, cpg, pending(21786, "plain", "")}
	want := "JOBID               TRES_PER_JOB        CPUS_PER_TRES       MEM_PER_TRES        \n" +
		"21792               gres:gpu:1          N/A                 gres:gpu:1000       \n" +
		"21791               gres:gpu:2          gres:gpu:4          N/A                 \n" +
		"21786               N/A                 N/A                 N/A                 \n"
	te := newTestEnv(&fakeController{now: 1795990100, jobs: jobs}, 1795990100)
	args := strings.Fields("-j 21792,21791,21786 -O jobid,tres-per-job,cpus-per-tres,mem-per-tres")
	if code := Squeue(context.Background(), te.Env, args); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
}
