package command

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestS16JSONFlagsCancelledPending: the peer lists no flags for a job
// cancelled while pending (sbatch --hold -n2; scancel: "flags": []), where
// a job that ran lists TRES_STR_CALC once it ended.
func TestS16JSONFlagsCancelledPending(t *testing.T) {
	pending := api.Job{JobState: job.Cancelled, SubmitTime: 100, StartTime: 110, EndTime: 110, CPUsPerTask: 1}
	ran := pending
	ran.Nodes, ran.StartTime = "cpu001", 105
	got := map[string][]string{
		"cancelled while pending": (&jobData{j: &pending}).flags(),
		"ended after running":     (&jobData{j: &ran}).flags(),
	}
	want := map[string][]string{"cancelled while pending": nil, "ended after running": {"TRES_STR_CALC"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("flags (-want +got):\n%s", diff)
	}
}

// TestS16PerTRES: --cpus-per-gpu and --mem-per-gpu as the peer shows them
// (sbatch --hold --gpus=2 --cpus-per-gpu=3 --mem-per-gpu=1000): squeue
// --json's cpus_per_tres and memory_per_tres, scontrol's CpusPerTres and
// MemPerTres lines before TresPerJob.
func TestS16PerTRES(t *testing.T) {
	j := peerJSONJobs()[0]
	j.CPUsPerGPU, j.MemoryPerGPU, j.TRESPerJob = 3, 1000, "gres:gpu:2"
	f := peerJSONController()
	f.jobs = []api.Job{j}
	te := newTestEnv(f, 1796008400)
	if code := Squeue(context.Background(), te.Env, []string{"--json"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	perTRES := regexp.MustCompile(`"(cpus|memory)_per_tres": "[^"]*"`)
	got := perTRES.FindAllString(te.stdout.String(), -1)
	want := []string{`"cpus_per_tres": "gres:gpu:3"`, `"memory_per_tres": "gres:gpu:1000"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("squeue --json (-want +got):\n%s", diff)
	}
	lines := strings.Split(string((&jobFormatter{}).fileLines(nil, &j, "\n")), "\n")
	wantLines := []string{"Power=", "CpusPerTres=gres:gpu:3", "MemPerTres=gres:gpu:1000", "TresPerJob=gres:gpu:2"}
	if diff := cmp.Diff(wantLines, lines[len(lines)-4:]); diff != "" {
		t.Errorf("scontrol show job (-want +got):\n%s", diff)
	}
}

// TestS16JSONNoTaskCount: a job that ended before it ran, submitted
// without -n (the controller gives no task count), prints "cpus": null
// and "tasks": null as the peer does (sbatch --hold; scancel).
func TestS16JSONNoTaskCount(t *testing.T) {
	j := peerJSONJobs()[0]
	j.JobState, j.Tasks, j.CPUs = job.Cancelled, 0, 1
	f := peerJSONController()
	f.jobs = []api.Job{j}
	te := newTestEnv(f, 1796008400)
	if code := Squeue(context.Background(), te.Env, []string{"--json"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	got := regexp.MustCompile(`"(cpus|tasks)": [^,]*`).FindAllString(te.stdout.String(), -1)
	if diff := cmp.Diff([]string{`"cpus": null`, `"tasks": null`}, got); diff != "" {
		t.Errorf("squeue --json (-want +got):\n%s", diff)
	}
}
