package command

import (
	"context"
	"regexp"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestScontrolSchedulerField: the peer shows Scheduler=Backfill:* for a
// pending job its backfill pass keeps trying (30 of 30 looks over 15 s
// at bf_interval=5), Main for one the pass skips and for a running job.
func TestScontrolSchedulerField(t *testing.T) {
	pending := func(id uint32, r job.Reason) api.Job {
		return api.Job{JobID: id, Name: "j", UserName: "root", Partition: "normal", JobState: job.Pending,
			StateReason: r, NodeCount: 1, SubmitTime: peerTimeNow - 60, LastSchedEval: peerTimeNow - 2}
	}
	jobs := []api.Job{pending(1, job.ReasonResources), pending(2, job.ReasonPriority), pending(3, job.ReasonJobHeldUser),
		pending(4, job.ReasonDependency), pending(5, job.ReasonBeginTime), pending(6, job.ReasonJobArrayTaskLimit),
		{JobID: 7, Name: "j", UserName: "root", Partition: "normal", JobState: job.Running, NodeCount: 1,
			SubmitTime: peerTimeNow - 60, StartTime: peerTimeNow - 30, LastSchedEval: peerTimeNow - 30}}
	want := map[string]string{"1": "Backfill:*", "2": "Backfill:*", "3": "Main", "4": "Main", "5": "Main", "6": "Main", "7": "Main"}
	re := regexp.MustCompile(`Scheduler=(\S+)`)
	for id, w := range want {
		te := newTestEnv(&fakeController{now: peerTimeNow, jobs: jobs}, peerTimeNow)
		if code := Scontrol(context.Background(), te.Env, []string{"show", "job", id}); code != 0 {
			t.Fatalf("job %s: exit %d: %s", id, code, te.stderr)
		}
		m := re.FindStringSubmatch(te.stdout.String())
		if m == nil || m[1] != w {
			t.Errorf("job %s: Scheduler=%v, want %s", id, m, w)
		}
	}
}
