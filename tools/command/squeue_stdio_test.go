package command

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// stdioJobs are the peer's jobs of testdata/peer/squeue_stdio_explicit.txt,
// each held, in /tmp/s15d, as the controller reports them: the default
// name it gave a job without -o is marked, and the same name given with
// -o or -e is not.
func stdioJobs() []api.Job {
	const dflt = "/tmp/s15d/slurm-%j.out"
	base := api.Job{UserName: "root", Partition: "normal", BatchFlag: true, WorkDir: "/tmp/s15d",
		JobState: job.Pending, StateReason: job.ReasonJobHeldUser, NodeCount: 1, CPUs: 1, Name: "wrap"}
	mk := func(id uint32, out, err string, outDefault, errDefault bool) api.Job {
		j := base
		j.JobID, j.StdOut, j.StdErr, j.StdOutDefault, j.StdErrDefault = id, out, err, outDefault, errDefault
		return j
	}
	return []api.Job{
		mk(20568, dflt, dflt, true, true),                                      // sbatch --hold --wrap true
		mk(20569, dflt, dflt, false, true),                                     // -o slurm-%j.out
		mk(20570, dflt, dflt, false, false),                                    // -o /tmp/s15d/slurm-%j.out -e slurm-%j.out
		mk(20571, "/tmp/s15d/foo-%x.out", "/tmp/s15d/foo-%x.out", false, true), // -o foo-%x.out
		mk(20572, dflt, dflt, true, false),                                     // -e slurm-%j.out
	}
}

// TestSqueueStdioExplicit: squeue -O StdOut/StdErr print the name Slurm
// would use for a job submitted without -o, but a default-looking name
// given with -o or -e as the pattern it is, as the peer prints them.
func TestSqueueStdioExplicit(t *testing.T) {
	want, err := os.ReadFile("testdata/peer/squeue_stdio_explicit.txt")
	if err != nil {
		t.Fatal(err)
	}
	te := newTestEnv(&fakeController{now: 1796008400, jobs: stdioJobs()}, 1796008400)
	code := Squeue(context.Background(), te.Env, []string{"-S", "i", "-O", "JobID,StdOut:40,StdErr:40"})
	if diff := cmp.Diff(string(want), te.stdout.String()); diff != "" || code != 0 {
		t.Errorf("exit %d, stderr %q; stdout (-want +got):\n%s", code, te.stderr, diff)
	}
}

// TestSqueueJSONStdioExplicit: squeue --json leaves standard_output empty
// for a job submitted without -o and standard_error for one without -e,
// and keeps an explicitly given default-looking name, as the peer does
// (testdata/peer/squeue_json_stdio_explicit.txt: job, output, error; "-"
// for empty).
func TestSqueueJSONStdioExplicit(t *testing.T) {
	want, err := os.ReadFile("testdata/peer/squeue_json_stdio_explicit.txt")
	if err != nil {
		t.Fatal(err)
	}
	te := newTestEnv(&fakeController{now: 1796008400, jobs: stdioJobs(), config: api.ConfigResponse{ClusterName: "peer"}}, 1796008400)
	if code := Squeue(context.Background(), te.Env, []string{"--json"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	var doc struct {
		Jobs []struct {
			JobID  uint32  `json:"job_id"`
			Out    *string `json:"standard_output"`
			ErrOut *string `json:"standard_error"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal(te.stdout.Bytes(), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, te.stdout)
	}
	dash := func(s *string) string {
		if s == nil || *s == "" {
			return "-"
		}
		return *s
	}
	var got strings.Builder
	for _, j := range doc.Jobs {
		fmt.Fprintf(&got, "%d %s %s\n", j.JobID, dash(j.Out), dash(j.ErrOut))
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
