package command

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// jsonPeerJobs are the accounting peer's jobs of testdata/peer/sacct/
// json-*.json as Loam's controller reports them.
func jsonPeerJobs() map[string]api.AcctJob {
	root := uint32(0)
	use := func(user, sys int64) *api.StepUsage {
		return &api.StepUsage{Nodes: []api.NodeUsage{{Node: "cpu002", Tasks: []api.TaskUsage{{UserUsec: user, SysUsec: sys}}}}}
	}
	step := func(id, name string, tasks int, start, end int64, tres string, u *api.StepUsage) api.AcctStep {
		return api.AcctStep{StepID: id, Name: name, State: job.Completed, StartTime: start, EndTime: end,
			Elapsed: end - start, Nodes: "cpu002", NodeCount: 1, CPUs: 2, Tasks: tasks, AllocTRES: tres, Usage: u}
	}
	base := func(id uint32, name string, st job.State) api.AcctJob {
		return api.AcctJob{JobID: id, Name: name, Partition: "normal", QOS: "normal", Account: "research",
			State: st, SubmitTime: 1796020353, EligibleTime: 1796020353, StartTime: 1796020354,
			EndTime: 1796020355, Elapsed: 1, TimeLimit: 3600, Nodes: "cpu001", NodeCount: 1, CPUs: 1,
			Priority: 84, WorkDir: "/tmp/s17a/acct", ReqTRES: "cpu=1,mem=1G,node=1,billing=1",
			AllocTRES: "cpu=1,mem=1G,node=1,billing=1"}
	}
	batch := func(j api.AcctJob, st job.State, ec job.ExitCode, user int64) api.AcctJob {
		s := api.AcctStep{StepID: "batch", Name: "batch", State: st, ExitCode: ec, StartTime: j.StartTime,
			EndTime: j.EndTime, Elapsed: j.Elapsed, Nodes: j.Nodes, NodeCount: 1, CPUs: 1, Tasks: 1,
			AllocTRES: "cpu=1,mem=1G,node=1", Usage: use(user, 0)}
		j.Steps = []api.AcctStep{s}
		return j
	}
	done := batch(base(2, "done", job.Completed), job.Completed, job.ExitCode{}, 3412)
	crun := base(5, "crun", job.Cancelled)
	crun.CancelledBy = &root
	crun = batch(crun, job.Cancelled, job.ExitCode{Signal: 15}, 2596)
	cpend := base(21, "wrap", job.Cancelled)
	cpend.CancelledBy, cpend.Reason = &root, job.ReasonBeginTime
	cpend.SubmitTime, cpend.EligibleTime, cpend.StartTime, cpend.EndTime = 1796021197, 1796024797, 0, 1796021200
	cpend.Elapsed, cpend.Nodes, cpend.AllocTRES, cpend.WorkDir = 0, "", "", "/tmp/s17a"
	steps := base(12, "steps", job.Completed)
	steps.SubmitTime, steps.EligibleTime, steps.StartTime, steps.EndTime = 1796020356, 1796020356, 1796020356, 1796020357
	steps.Nodes, steps.CPUs, steps.Priority = "cpu002", 2, 86
	steps.ReqTRES, steps.AllocTRES = "cpu=2,mem=2G,node=1,billing=2", "cpu=2,mem=2G,node=1,billing=2"
	steps.Steps = []api.AcctStep{
		step("batch", "batch", 1, 1796020356, 1796020357, "cpu=2,mem=2G,node=1", use(22516, 5377)),
		step("0", "hostname", 2, 1796020356, 1796020356, "cpu=2,mem=2G,node=1", use(3327, 0)),
		step("1", "sleep", 1, 1796020356, 1796020357, "cpu=2,mem=2G,node=1", use(1968, 202)),
	}
	return map[string]api.AcctJob{"done": done, "crun": crun, "cpend": cpend, "steps": steps}
}

// TestSacctJSONPeer: sacct --json prints the peer's document byte for
// byte for a completed job, one cancelled while running (its batch step
// killed by SIGTERM), one cancelled before it started and one with two
// srun steps.
func TestSacctJSONPeer(t *testing.T) {
	for name, j := range jsonPeerJobs() {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile("testdata/peer/sacct/json-" + name + ".json")
			if err != nil {
				t.Fatal(err)
			}
			f := &fakeController{acct: []api.AcctJob{j}}
			f.config.ClusterName = "acct"
			te := newTestEnv(f, 1796030000)
			if code := Sacct(context.Background(), te.Env, []string{"--json", "-j", "1"}); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(string(want), te.stdout.String()); diff != "" {
				t.Errorf("sacct --json (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSacctJSONKeys: with -X the peer's document has no steps; with no
// job found, its "Nothing found" error and exit 0; --yaml is refused.
func TestSacctJSONKeys(t *testing.T) {
	jobs := jsonPeerJobs()
	f := &fakeController{acct: []api.AcctJob{jobs["steps"]}}
	te := newTestEnv(f, 1796030000)
	if code := Sacct(context.Background(), te.Env, []string{"--json", "-X", "-j", "12"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	var doc struct {
		Jobs []struct {
			Steps []any `json:"steps"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal(te.stdout.Bytes(), &doc); err != nil || len(doc.Jobs) != 1 || len(doc.Jobs[0].Steps) != 0 {
		t.Errorf("-X: %v, %+v", err, doc)
	}
	te = newTestEnv(&fakeController{}, 1796030000)
	if code := Sacct(context.Background(), te.Env, []string{"--json", "-j", "99999"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	var empty struct {
		Errors []map[string]any `json:"errors"`
		Jobs   []any            `json:"jobs"`
	}
	if err := json.Unmarshal(te.stdout.Bytes(), &empty); err != nil || len(empty.Errors) != 1 || len(empty.Jobs) != 0 {
		t.Errorf("nothing found: %v, %s", err, te.stdout)
	}
	te = newTestEnv(&fakeController{}, 1796030000)
	if code := Sacct(context.Background(), te.Env, []string{"--yaml"}); code != 1 ||
		te.stderr.String() != "sacct: error: --yaml is not supported; use --json\n" {
		t.Errorf("--yaml: exit %d, stderr %q", code, te.stderr)
	}
}

// TestSacctJSONRequiredMemory: required.memory is the request as asked,
// per node or per CPU, as the accounting peer prints it (--mem=1000 -n2:
// 1000; --mem-per-cpu=700 -n2: 700).
func TestSacctJSONRequiredMemory(t *testing.T) {
	cases := map[string]struct {
		j    api.AcctJob
		want int64
	}{
		"--mem per node":  {api.AcctJob{ReqTRES: "cpu=2,mem=1000M,node=1", MemPerNode: 1000}, 1000},
		"--mem-per-cpu":   {api.AcctJob{ReqTRES: "cpu=2,mem=1400M,node=1", MemPerCPU: 700}, 700},
		"no request kept": {api.AcctJob{ReqTRES: "cpu=2,mem=2048M,node=1"}, 1024},
	}
	for name, tc := range cases {
		req := jsonRequired(&tc.j)
		if got := req[1].v; got != tc.want {
			t.Errorf("%s: memory %v, want %d", name, got, tc.want)
		}
	}
}
